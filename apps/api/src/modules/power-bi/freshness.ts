import type { FastifyBaseLogger } from 'fastify';
import type { AtualizacaoPainel } from '@paineis/contract/power-bi';
import type { Db } from '../../db/client.ts';
import { VersionedCache, VersionedKeyedCache } from '../../db/versioned-cache.ts';
import type { PowerBiClient, PowerBiRefresh } from '../../integrations/power-bi/power-bi-client.ts';
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
 * last completed one ended is kept apart, so a failed or running refresh still shows when the data last refreshed
 * (the one known before when none of the history completed).
 */
export function freshnessOf(
  datasetId: string,
  history: readonly PowerBiRefresh[],
  previous: DatasetFreshness | undefined,
): DatasetFreshness {
  const newest = history[0];
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
    case 'Unknown':
      // Unknown without an end is a refresh under way; with one, Power BI does not know how it went.
      return { ...base, status: newest.endTime === null ? 'em-andamento' : 'desconhecida' };
    default:
      return { ...base, status: 'desconhecida' };
  }
}

/** DirectQuery and live connections have no refresh: their data is as fresh as the source. */
const isRealTime = (dataset: { isRefreshable: boolean; storageMode: string | null }) =>
  !dataset.isRefreshable || /directquery|live/i.test(dataset.storageMode ?? '');

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
    return (
      panelIds.has(panel.id) &&
      !(link && link.workspaceId === guidKey(panel.workspaceId) && link.reportId === guidKey(panel.reportId))
    );
  });
}

/**
 * One round, over every panel or over the panels named: the reports of each workspace holding them, once; then the
 * datasets of each workspace where their datasets live (a report may use a dataset of another workspace), once, which
 * says which can be refreshed; then the refresh history of each refreshable dataset, once, however many panels share
 * it. DirectQuery and live datasets cost no call of their own.
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
        datasetWorkspaceId: datasetId ? guidKey(report?.datasetWorkspaceId ?? workspaceId) : null,
      });
    }
  });

  // The panels' datasets, by the workspace they live in.
  const byDatasetWorkspace = new Map<string, Set<string>>();
  for (const link of links) {
    if (!link.datasetId) continue;
    const ws = link.datasetWorkspaceId!;
    byDatasetWorkspace.set(ws, (byDatasetWorkspace.get(ws) ?? new Set()).add(link.datasetId));
  }
  const previous = await storedDatasets(db);
  const read: DatasetFreshness[] = [];
  const refreshable: [datasetId: string, workspaceId: string][] = [];
  await eachLimited([...byDatasetWorkspace], CONCURRENT_CALLS, async ([workspaceId, wanted]) => {
    let listed;
    try {
      listed = await client.listDatasets(workspaceId, 'background');
    } catch (error) {
      // Its datasets keep what was known before until Power BI answers again.
      log.warn({ ...callFailure(error), workspaceId }, 'Power BI não listou os datasets do workspace');
      return;
    }
    const byId = new Map(listed.map((d) => [guidKey(d.id), d]));
    for (const datasetId of wanted) {
      const dataset = byId.get(datasetId);
      if (!dataset) {
        // Not in its workspace's list: what was known before stands.
        log.warn({ workspaceId, datasetId }, 'Power BI não listou o dataset no seu workspace');
        continue;
      }
      if (isRealTime(dataset)) {
        read.push({ datasetId, status: 'tempo-real', ultimaAtualizacao: null, ultimaTentativa: null, mensagem: null });
      } else {
        refreshable.push([datasetId, workspaceId]);
      }
    }
  });
  await eachLimited(refreshable, CONCURRENT_CALLS, async ([datasetId, workspaceId]) => {
    try {
      const history = await client.refreshHistory(workspaceId, datasetId, HISTORY_SIZE, 'background');
      read.push(freshnessOf(datasetId, history, previous.get(datasetId)));
    } catch (error) {
      // What was known before stands until Power BI answers again.
      log.warn({ ...callFailure(error), datasetId }, 'Power BI não informou as atualizações do dataset');
    }
  });

  await saveRound(db, links, read);
}

/** Every panel's freshness with Power BI's messages, by panel id, loaded once per change of the panels or a round. */
const byPanel = new VersionedCache(['paineis', 'atualizacoes'], async (db) => {
  const [panels, stored] = await Promise.all([allPanels(db), storedFreshness(db)]);
  const links = new Map(stored.map((s) => [s.painelId, s]));
  const answer: Record<string, AtualizacaoPainel> = {};
  for (const panel of panels) {
    const link = links.get(panel.id);
    // Read for the report the panel shows now: one pointed elsewhere since is not known yet.
    const current =
      link && link.workspaceId === guidKey(panel.workspaceId) && link.reportId === guidKey(panel.reportId)
        ? link.dataset
        : null;
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
