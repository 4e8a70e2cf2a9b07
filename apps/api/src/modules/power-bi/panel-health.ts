import type { FastifyBaseLogger } from 'fastify';
import type { Painel } from '@paineis/contract/panels';
import { PANEL_UNAVAILABLE, type EstadoSaude, type SaudePainel } from '@paineis/contract/power-bi';
import type { Db } from '../../db/client.ts';
import { VersionedCache } from '../../db/versioned-cache.ts';
import { MicrosoftError } from '../../integrations/microsoft-error.ts';
import type { PowerBiClient } from '../../integrations/power-bi/power-bi-client.ts';
import { DomainFailure } from '../../lib/domain-failure.ts';
import { guidKey } from '../../lib/guid.ts';
import { PreparedJson } from '../../lib/prepared-json.ts';
import { allPanels } from '../panels/panel-access.ts';
import { callFailure, CONCURRENT_CALLS, eachLimited } from './power-bi-calls.ts';
import { saveHealth, storedHealth, type StoredHealth } from './panel-health.repository.ts';

/**
 * Whether Power BI still serves each panel's report to the portal (docs/requirements.md#power-bi): checked in
 * background rounds (the report's pages, as the service principal), and when an opening finds the report gone. A
 * panel found broken is answered PANEL_UNAVAILABLE at once, without asking Power BI, until a check finds it again.
 */

export const HEALTH_MESSAGES = {
  notFound: 'O Power BI não encontrou o relatório: ele foi excluído ou movido para outro workspace.',
  noAccess:
    'O portal não tem mais acesso ao relatório no Power BI: a entidade de serviço perdeu a permissão no workspace.',
  noPages: 'O relatório não tem nenhuma página para exibir.',
  refused: (status: number | undefined) =>
    `O Power BI recusou a verificação do relatório${status === undefined ? '' : ` (HTTP ${status})`}.`,
} as const;

/** The states in which a panel cannot be opened: its report is gone, or the portal may not read it. */
const BROKEN: ReadonlySet<EstadoSaude> = new Set(['relatorio-nao-encontrado', 'sem-acesso']);

type Verdict = Pick<StoredHealth, 'estado' | 'mensagem'>;

/**
 * What a refusal of Power BI says of the report: 404 gone, 401/403 no access, another refusal an error; null when
 * Power BI was merely down, slow or throttling (or answered something unreadable), which says nothing of the report.
 */
export function verdictOf(error: unknown): Verdict | null {
  if (!(error instanceof MicrosoftError) || error.service !== 'power-bi' || error.failure !== 'refused') return null;
  if (error.status === 404) return { estado: 'relatorio-nao-encontrado', mensagem: HEALTH_MESSAGES.notFound };
  if (error.status === 401 || error.status === 403) return { estado: 'sem-acesso', mensagem: HEALTH_MESSAGES.noAccess };
  return { estado: 'erro', mensagem: HEALTH_MESSAGES.refused(error.status) };
}

/**
 * The panels a round checks: every one, or, for the panels named (created, or pointed at another report), those not
 * yet checked for the report they show now.
 */
async function panelsToCheck(db: Db, panelIds: ReadonlySet<number> | undefined) {
  const panels = await allPanels(db);
  if (!panelIds) return panels;
  const checks = await byPanel.get(db);
  return panels.filter((panel) => panelIds.has(panel.id) && !checkedFor(checks.get(panel.id), panel));
}

/**
 * One round, over every panel or over the panels named: each distinct report once, however many panels show it. A
 * report whose check Power BI did not answer (5xx, timeout, throttled past the retries) keeps its previous state:
 * Power BI being down breaks no panel.
 */
export async function checkHealth(
  db: Db,
  client: PowerBiClient,
  log: FastifyBaseLogger,
  panelIds?: ReadonlySet<number>,
): Promise<void> {
  const reports = new Map<string, { workspaceId: string; reportId: string; panels: number[] }>();
  for (const panel of await panelsToCheck(db, panelIds)) {
    const workspaceId = guidKey(panel.workspaceId);
    const reportId = guidKey(panel.reportId);
    const key = `${workspaceId}/${reportId}`;
    const found = reports.get(key) ?? { workspaceId, reportId, panels: [] };
    found.panels.push(panel.id);
    reports.set(key, found);
  }
  const checks: StoredHealth[] = [];
  await eachLimited([...reports.values()], CONCURRENT_CALLS, async ({ workspaceId, reportId, panels }) => {
    let verdict: Verdict | null;
    try {
      const pages = await client.getPages(workspaceId, reportId, 'background');
      verdict =
        pages.length > 0 ? { estado: 'ok', mensagem: null } : { estado: 'erro', mensagem: HEALTH_MESSAGES.noPages };
    } catch (error) {
      verdict = verdictOf(error);
      log.warn({ ...callFailure(error), workspaceId, reportId }, 'Power BI recusou ou falhou ao verificar o relatório');
    }
    if (!verdict) return;
    const verificadoEm = new Date();
    for (const painelId of panels) checks.push({ painelId, workspaceId, reportId, ...verdict, verificadoEm });
  });
  await saveHealth(db, checks);
}

/** Each panel's last check, by panel id, in memory: every opening of a panel asks it. */
const byPanel = new VersionedCache(
  ['saude'],
  async (db) => new Map((await storedHealth(db)).map((h) => [h.painelId, h])),
);

/** Whether this check is of the report the panel shows now: one pointed elsewhere since is not judged by it. */
function checkedFor(check: StoredHealth | undefined, panel: Painel): check is StoredHealth {
  return (
    check !== undefined &&
    check.reportId === guidKey(panel.reportId) &&
    check.workspaceId === guidKey(panel.workspaceId)
  );
}

/** Whether the last check found this panel's report, the one it shows now, gone or unreadable. */
function brokenIn(checks: ReadonlyMap<number, StoredHealth>, panel: Painel): boolean {
  const check = checks.get(panel.id);
  return checkedFor(check, panel) && BROKEN.has(check.estado);
}

/** The refusal a person gets opening a broken panel, instead of Power BI's error. */
export const panelUnavailable = () => new DomainFailure('busy', PANEL_UNAVAILABLE);

/** Whether the panel is known broken, from memory; undefined when the checks are not loaded (then `isBroken`). */
export function isBrokenNow(db: Db, panel: Painel): boolean | undefined {
  const checks = byPanel.peek(db);
  return checks === undefined ? undefined : brokenIn(checks, panel);
}

export async function isBroken(db: Db, panel: Painel): Promise<boolean> {
  return brokenIn(await byPanel.get(db), panel);
}

/**
 * An opening's own call to Power BI was refused: when the refusal says the report is gone or unreadable (404,
 * 401, 403), the panel's state is recorded, so admins see it and the next openings do not ask Power BI, and the
 * person gets PANEL_UNAVAILABLE. Any other error is the caller's to throw as it is.
 */
export async function brokenByOpening(db: Db, panel: Painel, error: unknown): Promise<DomainFailure | null> {
  const verdict = verdictOf(error);
  if (!verdict || !BROKEN.has(verdict.estado)) return null;
  await saveHealth(db, [
    {
      painelId: panel.id,
      workspaceId: guidKey(panel.workspaceId),
      reportId: guidKey(panel.reportId),
      ...verdict,
      verificadoEm: new Date(),
    },
  ]).catch(() => {
    // Not recorded now (the database failed): the next check records it; the person's answer is the same.
  });
  return panelUnavailable();
}

/** GET /paineis/saude as bytes: the last check of each panel, for the report it shows now. */
const answers = new VersionedCache(['paineis', 'saude'], async (db) => {
  const [panels, checks] = await Promise.all([allPanels(db), byPanel.get(db)]);
  const found: SaudePainel[] = [];
  for (const panel of [...panels].sort((a, b) => a.id - b.id)) {
    const check = checks.get(panel.id);
    if (!checkedFor(check, panel)) continue;
    found.push({
      painelId: panel.id,
      estado: check.estado,
      mensagem: check.mensagem,
      verificadoEm: check.verificadoEm.toISOString(),
    });
  }
  return new PreparedJson(found);
});

export const panelHealthJson = (db: Db): Promise<PreparedJson> => answers.get(db);

/** A panel with its last check, for the report it shows now (the alerts ask it). */
export interface PanelCheck {
  painelId: number;
  nomePainel: string;
  /** Null when its report has not been checked since the panel was created or pointed elsewhere. */
  estado: EstadoSaude | null;
  /** Whether that check found the report gone or unreadable. */
  quebrado: boolean;
  mensagem: string | null;
}

/** Every panel that exists now, with its current check. */
export async function panelChecks(db: Db): Promise<PanelCheck[]> {
  const [panels, checks] = await Promise.all([allPanels(db), storedHealth(db)]);
  const byId = new Map(checks.map((h) => [h.painelId, h]));
  return [...panels]
    .sort((a, b) => a.id - b.id)
    .map((panel) => {
      const check = byId.get(panel.id);
      const current = checkedFor(check, panel) ? check : null;
      return {
        painelId: panel.id,
        nomePainel: panel.nomePainel,
        estado: current?.estado ?? null,
        quebrado: current !== null && BROKEN.has(current.estado),
        mensagem: current?.mensagem ?? null,
      };
    });
}
