import type { FastifyBaseLogger } from 'fastify';
import type { AtualizacaoPainel } from '@paineis/contract/power-bi';
import type { Painel } from '@paineis/contract/panels';
import type { Db } from '../../db/client.ts';
import { VersionedCache, VersionedKeyedCache } from '../../db/versioned-cache.ts';
import type { PowerBiClient, PowerBiDataset, PowerBiRefresh } from '../../integrations/power-bi/power-bi-client.ts';
import { guidKey } from '../../lib/guid.ts';
import { PreparedJson } from '../../lib/prepared-json.ts';
import { allPanels, panelsVisibleTo } from '../panels/panel-access.ts';
import type { Requester } from '../panels/requester.ts';
import { callFailure, CONCURRENT_CALLS, eachLimited } from './power-bi-calls.ts';
import {
  saveRound,
  storedDatasets,
  storedFreshness,
  type DatasetFreshness,
  type PanelDatasetLink,
} from './freshness.repository.ts';

/**
 * When each panel's data was last refreshed (docs/requirements.md#power-bi): read from Power BI's refresh history in
 * background rounds, stored, and answered from memory. No request of a person waits for Power BI for it.
 */

/** Refreshes asked of each dataset's history: enough to find the last completed one behind a few failures. */
export const HISTORY_SIZE = 10;
/** Power BI's message on a failed refresh is kept to this many characters. */
export const MAX_MESSAGE = 500;
export const FAILED_WITHOUT_REASON = 'O Power BI não informou o motivo da falha.';

const UNKNOWN: AtualizacaoPainel = { status: 'desconhecida', ultimaAtualizacao: null, ultimaTentativa: null };

/**
 * Power BI's reason for a failed refresh: serviceExceptionJson's errorDescription or message (at any of its usual
 * places), else its error code, else the text as it came; bounded.
 */
export function failureMessage(serviceExceptionJson: string | null): string {
  const raw = serviceExceptionJson?.trim() ?? '';
  if (raw === '') return FAILED_WITHOUT_REASON;
  let text = raw;
  try {
    const parsed: unknown = JSON.parse(raw);
    const fields = (value: unknown): Record<string, unknown> =>
      typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
    const top = fields(parsed);
    const error = fields(top.error);
    const found = [
      top.errorDescription,
      top.message,
      error.message,
      error.errorDescription,
      top.errorCode,
      error.code,
    ].find((v) => typeof v === 'string' && v.trim() !== '');
    if (typeof found === 'string') text = found.trim();
  } catch {
    // Not JSON: the text itself.
  }
  return text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE - 1)}…` : text;
}

/**
 * A dataset's freshness from its refresh history (newest first): the newest refresh says the status, and when the
 * last completed one ended is kept apart, so a failed, cancelled or running refresh still shows when the data last
 * refreshed (the one known before when none of the history completed). A refresh a selective refresh disabled
 * ('Disabled') did not run: it is neither the last attempt nor a change of the data, so it is passed over.
 */
export function freshnessOf(
  datasetId: string,
  history: readonly PowerBiRefresh[],
  previous: DatasetFreshness | undefined,
): DatasetFreshness {
  const newest = history.find((r) => r.status !== 'Disabled');
  const completed = history.find((r) => r.status === 'Completed' && r.endTime !== null);
  const found = completed?.endTime ? new Date(completed.endTime) : null;
  const kept = previous?.ultimaAtualizacao ?? null;
  const ultimaAtualizacao = found && (!kept || found > kept) ? found : kept;
  const ultimaTentativa = newest?.startTime ? new Date(newest.startTime) : null;
  const base = { datasetId, ultimaAtualizacao, ultimaTentativa, mensagem: null };
  if (!newest) return { ...base, status: 'desconhecida' };
  switch (newest.status) {
    case 'Completed':
      return { ...base, status: 'concluida' };
    case 'Failed':
      return { ...base, status: 'falhou', mensagem: failureMessage(newest.serviceExceptionJson) };
    case 'Cancelled':
      // Ended without changing the data: neither running nor failed.
      return { ...base, status: 'cancelada' };
    case 'Unknown':
      // Unknown without an end is a refresh under way; with one, Power BI does not know how it went.
      return { ...base, status: newest.endTime === null ? 'em-andamento' : 'desconhecida' };
    default:
      return { ...base, status: 'desconhecida' };
  }
}

/**
 * Where each panel's dataset lives, and the dataset as its workspace lists it (once per workspace). Microsoft's Report
 * has no `datasetWorkspaceId` (the swagger has it only in the admin scanner's related datasets), so it is used when
 * Power BI sends it, and otherwise the dataset is looked for where it was found before, else in the report's own
 * workspace; not there, in every other workspace the service principal is a member of (Groups_GetGroups, once a
 * round, then each workspace's datasets). A workspace whose list failed keeps its datasets' state. Each link's
 * datasetWorkspaceId is set to where the dataset was found (or looked for).
 */
async function findDatasets(
  client: PowerBiClient,
  log: FastifyBaseLogger,
  links: PanelDatasetLink[],
  stored: ReadonlyMap<number, PanelDatasetLink>,
): Promise<Map<string, { workspaceId: string; dataset: PowerBiDataset }>> {
  const lists = new Map<string, Map<string, PowerBiDataset> | null>();
  const listAll = (workspaceIds: Iterable<string>) =>
    eachLimited(
      [...new Set(workspaceIds)].filter((ws) => !lists.has(ws)),
      CONCURRENT_CALLS,
      async (workspaceId) => {
        try {
          const listed = await client.listDatasets(workspaceId, 'background');
          lists.set(workspaceId, new Map(listed.map((d) => [guidKey(d.id), d])));
        } catch (error) {
          lists.set(workspaceId, null);
          // Its datasets keep what was known before until Power BI answers again.
          log.warn({ ...callFailure(error), workspaceId }, 'Power BI não listou os datasets do workspace');
        }
      },
    );
  const withDataset = links.filter((link) => link.datasetId !== null);
  const told = new Set(withDataset.filter((link) => link.datasetWorkspaceId !== null));
  for (const link of withDataset) {
    if (link.datasetWorkspaceId !== null) continue;
    const before = stored.get(link.painelId);
    link.datasetWorkspaceId =
      before?.datasetId === link.datasetId && before.datasetWorkspaceId ? before.datasetWorkspaceId : link.workspaceId;
  }
  await listAll(withDataset.map((link) => link.datasetWorkspaceId!));

  const found = new Map<string, { workspaceId: string; dataset: PowerBiDataset }>();
  const lookIn = (workspaceId: string, datasetId: string) => {
    const dataset = lists.get(workspaceId)?.get(datasetId);
    if (dataset) found.set(datasetId, { workspaceId, dataset });
    return dataset !== undefined;
  };
  // Not where it was looked for, though that workspace answered, and Power BI did not say where: look elsewhere.
  const lost = withDataset.filter(
    (link) =>
      !lookIn(link.datasetWorkspaceId!, link.datasetId!) && !told.has(link) && lists.get(link.datasetWorkspaceId!),
  );
  if (lost.length > 0) {
    try {
      await listAll((await client.listWorkspaces('background')).map((w) => guidKey(w.id)));
    } catch (error) {
      log.warn(callFailure(error), 'Power BI não listou os workspaces');
    }
  }
  for (const link of withDataset) {
    const datasetId = link.datasetId!;
    const where = found.get(datasetId)?.workspaceId;
    if (where) {
      link.datasetWorkspaceId = where;
      continue;
    }
    const elsewhere = lost.includes(link)
      ? [...lists].find(([ws, list]) => ws !== link.datasetWorkspaceId && list?.has(datasetId))?.[0]
      : undefined;
    if (elsewhere && lookIn(elsewhere, datasetId)) {
      link.datasetWorkspaceId = elsewhere;
    } else if (lists.get(link.datasetWorkspaceId!)) {
      // Not in its workspace's list (nor, when searched, any other): what was known before stands.
      log.warn({ workspaceId: link.datasetWorkspaceId, datasetId }, 'Power BI não listou o dataset no seu workspace');
    }
  }
  return found;
}

/** Whether a panel's link was read for the report the panel shows now: one pointed elsewhere since is not known yet. */
function readForCurrentReport<L extends PanelDatasetLink>(link: L | undefined, panel: Painel): link is L {
  return (
    link !== undefined && link.workspaceId === guidKey(panel.workspaceId) && link.reportId === guidKey(panel.reportId)
  );
}

/**
 * Each dataset's refresh history, once, as `freshnessOf` reads it against what was known before; a dataset Power BI
 * did not answer for is left out, and what was known of it stands until Power BI answers again.
 */
async function readHistories(
  client: PowerBiClient,
  log: FastifyBaseLogger,
  datasets: Iterable<[datasetId: string, workspaceId: string]>,
  previous: (datasetId: string) => DatasetFreshness | undefined,
): Promise<DatasetFreshness[]> {
  const read: DatasetFreshness[] = [];
  await eachLimited([...datasets], CONCURRENT_CALLS, async ([datasetId, workspaceId]) => {
    try {
      const history = await client.refreshHistory(workspaceId, datasetId, HISTORY_SIZE, 'background');
      read.push(freshnessOf(datasetId, history, previous(datasetId)));
    } catch (error) {
      log.warn({ ...callFailure(error), datasetId }, 'Power BI não informou as atualizações do dataset');
    }
  });
  return read;
}

/**
 * The panels a round reads: every one, or, for the panels named (created, or pointed at another report), those not yet
 * read for the report they show now.
 */
async function panelsToRead(db: Db, panelIds: ReadonlySet<number> | undefined) {
  const panels = await allPanels(db);
  if (!panelIds) return panels;
  const read = new Map((await storedFreshness(db)).map((link) => [link.painelId, link]));
  return panels.filter((panel) => {
    const link = read.get(panel.id);
    return panelIds.has(panel.id) && !readForCurrentReport(link, panel);
  });
}

/**
 * One round, over every panel or over the panels named: the reports of each workspace holding them, once; then the
 * datasets of each workspace where their datasets live (a report may use a dataset of another workspace), once, which
 * says which are import models (IsRefreshable); for each of the others, its DirectQuery schedule, which only
 * DirectQuery and live connections have ('Tempo real', no history); then the refresh history of every other dataset,
 * once, however many panels share it, whatever IsRefreshable said (an import model with no schedule still has one).
 */
export async function readFreshness(
  db: Db,
  client: PowerBiClient,
  log: FastifyBaseLogger,
  panelIds?: ReadonlySet<number>,
): Promise<void> {
  const panels = await panelsToRead(db, panelIds);
  if (panels.length === 0) return;
  const byWorkspace = new Map<string, typeof panels>();
  for (const panel of panels) {
    const ws = guidKey(panel.workspaceId);
    byWorkspace.set(ws, [...(byWorkspace.get(ws) ?? []), panel]);
  }
  const links: PanelDatasetLink[] = [];
  await eachLimited([...byWorkspace], CONCURRENT_CALLS, async ([workspaceId, inWorkspace]) => {
    let reports;
    try {
      reports = await client.listReports(workspaceId, 'background');
    } catch (error) {
      // Its panels keep the dataset found before.
      log.warn({ ...callFailure(error), workspaceId }, 'Power BI não listou os relatórios do workspace');
      return;
    }
    const byId = new Map(reports.map((r) => [guidKey(r.id), r]));
    for (const panel of inWorkspace) {
      const report = byId.get(guidKey(panel.reportId));
      const datasetId = report?.datasetId ? guidKey(report.datasetId) : null;
      links.push({
        painelId: panel.id,
        workspaceId,
        reportId: guidKey(panel.reportId),
        datasetId,
        // Power BI's own word when it gives one (not a documented field: see findDatasets), else found later.
        datasetWorkspaceId: report?.datasetWorkspaceId ? guidKey(report.datasetWorkspaceId) : null,
      });
    }
  });

  const previous = await storedDatasets(db);
  const found = await findDatasets(
    client,
    log,
    links,
    new Map((await storedFreshness(db)).map((l) => [l.painelId, l])),
  );
  const read: DatasetFreshness[] = [];
  const histories: [datasetId: string, workspaceId: string][] = [];
  await eachLimited([...found], CONCURRENT_CALLS, async ([datasetId, { workspaceId, dataset }]) => {
    // IsRefreshable is true only for an import model ("with the connection mode specifically set to 'Import'").
    if (dataset.isRefreshable) return void histories.push([datasetId, workspaceId]);
    // False is DirectQuery or a live connection, or an import model with no schedule and no recent refresh: only a
    // DirectQuery schedule tells them apart (docs/decisions/019-power-bi-seen-from-the-portal.md).
    try {
      if (await client.isDirectQueryOrLive(workspaceId, datasetId, 'background')) {
        read.push({ datasetId, status: 'tempo-real', ultimaAtualizacao: null, ultimaTentativa: null, mensagem: null });
      } else {
        histories.push([datasetId, workspaceId]);
      }
    } catch (error) {
      // What was known before stands until Power BI answers again.
      log.warn({ ...callFailure(error), datasetId }, 'Power BI não informou se o dataset é DirectQuery');
    }
  });
  read.push(...(await readHistories(client, log, histories, (datasetId) => previous.get(datasetId))));

  await saveRound(db, links, read);
}

/**
 * A short round over the panels named (those a subscription sent after each refresh waits on), between the full
 * rounds: only the refresh history of their datasets as the last full round found them (no listing of reports,
 * datasets or workspaces), once per dataset, so a delivery follows its refresh within minutes at one call per dataset
 * (docs/requirements.md#subscriptions-after-refresh). A panel not yet read for the report it shows, or whose dataset is
 * read at its source ('Tempo real'), waits for the full round. Answers how many datasets Power BI answered for.
 */
export async function readWatchedFreshness(
  db: Db,
  client: PowerBiClient,
  log: FastifyBaseLogger,
  panelIds: ReadonlySet<number>,
): Promise<number> {
  if (panelIds.size === 0) return 0;
  const panels = new Map((await allPanels(db)).map((panel) => [panel.id, panel]));
  const datasets = new Map<string, string>();
  const previous = new Map<string, DatasetFreshness>();
  for (const link of await storedFreshness(db)) {
    const panel = panels.get(link.painelId);
    if (!panelIds.has(link.painelId) || !panel || !link.datasetId || !link.datasetWorkspaceId) continue;
    if (!readForCurrentReport(link, panel) || link.dataset?.status === 'tempo-real') continue;
    datasets.set(link.datasetId, link.datasetWorkspaceId);
    if (link.dataset) previous.set(link.datasetId, link.dataset);
  }
  const read = await readHistories(client, log, datasets, (datasetId) => previous.get(datasetId));
  if (read.length > 0) await saveRound(db, [], read);
  return read.length;
}

/** Every panel's freshness with Power BI's messages, by panel id, loaded once per change of the panels or a round. */
const byPanel = new VersionedCache(['paineis', 'atualizacoes'], async (db) => {
  const [panels, stored] = await Promise.all([allPanels(db), storedFreshness(db)]);
  const links = new Map(stored.map((s) => [s.painelId, s]));
  const answer: Record<string, AtualizacaoPainel> = {};
  for (const panel of panels) {
    const link = links.get(panel.id);
    const current = readForCurrentReport(link, panel) ? link.dataset : null;
    answer[panel.id] = current
      ? {
          status: current.status,
          ultimaAtualizacao: current.ultimaAtualizacao?.toISOString() ?? null,
          ultimaTentativa: current.ultimaTentativa?.toISOString() ?? null,
          ...(current.mensagem === null ? {} : { mensagem: current.mensagem }),
        }
      : UNKNOWN;
  }
  return answer;
});

const forAdmins = new VersionedCache(
  ['paineis', 'atualizacoes'],
  async (db) => new PreparedJson(await byPanel.get(db)),
);

/** A person's answer: the panels they may open, without Power BI's messages (those are for admins). */
const perPerson = new VersionedKeyedCache(
  ['paineis', 'vinculos', 'grupos', 'atualizacoes'],
  async (db, id: string) => {
    const [all, visible] = await Promise.all([byPanel.get(db), panelsVisibleTo(db, { id, isAdmin: false })]);
    const answer: Record<string, AtualizacaoPainel> = {};
    for (const painelId of visible) {
      const found = all[painelId];
      if (!found) continue;
      const { mensagem: _forAdmins, ...shown } = found;
      answer[painelId] = shown;
    }
    return new PreparedJson(answer);
  },
  2_000,
);

/** GET /paineis/atualizacoes as bytes, from memory: every panel for an admin, the panels a person may open. */
export const freshnessJson = (db: Db, requester: Pick<Requester, 'id' | 'isAdmin'>): Promise<PreparedJson> =>
  requester.isAdmin ? forAdmins.get(db) : perPerson.get(db, requester.id);

/** A dataset some panel reads now, with its last refresh's status and the panels reading it (the alerts ask it). */
export interface DatasetOfPanels {
  datasetId: string;
  status: DatasetFreshness['status'];
  /** Power BI's message on a failed refresh. */
  mensagem: string | null;
  paineis: { id: number; nome: string }[];
}

/**
 * Every dataset read by a panel for the report it shows now (a link read for a report the panel no longer shows is
 * left out, as in byPanel), once, with the panels reading it in id order.
 */
export async function datasetsOfPanels(db: Db): Promise<DatasetOfPanels[]> {
  const [panels, stored] = await Promise.all([allPanels(db), storedFreshness(db)]);
  const links = new Map(stored.map((s) => [s.painelId, s]));
  const found = new Map<string, DatasetOfPanels>();
  for (const panel of [...panels].sort((a, b) => a.id - b.id)) {
    const link = links.get(panel.id);
    const current = readForCurrentReport(link, panel) ? link.dataset : null;
    if (!current) continue;
    const entry = found.get(current.datasetId) ?? {
      datasetId: current.datasetId,
      status: current.status,
      mensagem: current.mensagem,
      paineis: [],
    };
    entry.paineis.push({ id: panel.id, nome: panel.nomePainel });
    found.set(current.datasetId, entry);
  }
  return [...found.values()];
}
