import type { CapacidadeIndisponivel } from '@paineis/contract/capacity';
import type { Painel } from '@paineis/contract/panels';
import type { Db } from '../../db/client.ts';
import type { Embedding, EmbeddingService } from '../../integrations/power-bi/embedding-service.ts';
import { whenReady, type MaybePromise } from '../../lib/maybe-promise.ts';
import { DomainFailure } from '../../lib/domain-failure.ts';
import type { PreparedJson } from '../../lib/prepared-json.ts';
import type { OpeningRecorder, OpeningTimes } from '../usage/usage.ts';
import { openPanel, openPanelNow, requireVisiblePanel, type PanelOpening } from './panel-access.ts';
import { preparedOpening } from './panel-answers.ts';
import type { Requester } from './requester.ts';

/**
 * What the opening needs to know of a panel's report in Power BI (power-bi/panel-health.ts, given by app.ts, so that
 * the panels module does not import the Power BI side, which reads the panels).
 */
export interface OpeningHealth {
  /** Whether the last check found the report gone or unreadable; undefined when that is not in memory. */
  isBrokenNow(db: Db, panel: Painel): boolean | undefined;
  isBroken(db: Db, panel: Painel): Promise<boolean>;
  /** Power BI's refusal of an opening recorded as the report's health: the refusal to answer, or null. */
  brokenByOpening(db: Db, panel: Painel, error: unknown): Promise<DomainFailure | null>;
  /** The answer for a panel whose report is broken (PANEL_UNAVAILABLE). */
  unavailable(): DomainFailure;
}

/**
 * What the opening needs to know of the Power BI capacity (capacity/capacity.ts, given by app.ts): whether it serves
 * reports, and the 503 to answer while it is paused or waking (docs/decisions/024-capacity-cost.md).
 */
export interface OpeningCapacity {
  /** True when it serves reports as far as memory knows (none configured, running); undefined: ask forOpening. */
  servesNow(): boolean | undefined;
  /**
   * Null when it serves; else why not, and after how long to ask again (null: this person may not wake it). `fresh`
   * reads Azure now, past what memory holds.
   */
  forOpening(
    requester: { isAdmin: boolean; nome: string },
    fresh?: boolean,
  ): Promise<null | { retryAfterSeconds: number | null; body: CapacidadeIndisponivel }>;
}

/** What opening a panel needs of the app. */
export interface OpeningDeps {
  db: Db;
  embedding: EmbeddingService;
  openingRecorder: OpeningRecorder;
  openingHealth: OpeningHealth;
  openingCapacity: OpeningCapacity;
}

interface Embedded {
  panel: Painel;
  embedding: Embedding;
}

/**
 * The report's embed token for this person, with their RLS identity (the access model decides who and which roles):
 * at once when the panel, the person's links and a valid token are all in memory, as for nearly every opening.
 */
function embed(deps: OpeningDeps, id: number, requester: Requester, papel: string | undefined): MaybePromise<Embedded> {
  const opening = openPanelNow(deps.db, id, requester, papel);
  if (!opening) return openPanel(deps.db, id, requester, papel).then((waited) => embedding(deps, requester, waited));
  return embedding(deps, requester, opening);
}

/**
 * The token for an opening already decided, once the capacity serves reports (a paused one answers 503, woken when
 * this person may): from memory at once while it runs, as nearly always.
 */
function embedding(deps: OpeningDeps, requester: Requester, opening: PanelOpening): MaybePromise<Embedded> {
  if (deps.openingCapacity.servesNow() !== true) {
    return deps.openingCapacity.forOpening({ isAdmin: requester.isAdmin, nome: requester.email }).then((refusal) => {
      if (refusal) throw capacityRefusal(refusal);
      return embeddingOnCapacity(deps, requester, opening);
    });
  }
  return embeddingOnCapacity(deps, requester, opening);
}

/**
 * Before Power BI is asked for this person (an opening, an export): nothing while the capacity serves reports, else the
 * 503 of a paused or waking capacity, woken when this person may.
 */
export async function requireServingCapacity(
  capacity: OpeningCapacity,
  requester: Requester,
  /** After Power BI refused: Azure read now, since the capacity may have paused after memory last read it. */
  fresh = false,
): Promise<void> {
  if (!fresh && capacity.servesNow() === true) return;
  const refusal = await capacity.forOpening({ isAdmin: requester.isAdmin, nome: requester.email }, fresh);
  if (refusal) throw capacityRefusal(refusal);
}

/** The 503 of an opening while the capacity is paused or waking: when to ask again, and the capacity's state. */
function capacityRefusal({
  retryAfterSeconds,
  body,
}: {
  retryAfterSeconds: number | null;
  body: CapacidadeIndisponivel;
}): DomainFailure {
  const details = { capacidade: body.capacidade };
  return retryAfterSeconds === null
    ? new DomainFailure('unavailable', body.message, undefined, details)
    : new DomainFailure('busy', body.message, Math.max(1, Math.ceil(retryAfterSeconds)), details);
}

/**
 * The token: the one in memory, or Power BI's. A panel whose report the last check found gone or unreadable is
 * refused with PANEL_UNAVAILABLE without asking Power BI (power-bi/panel-health.ts).
 */
function embeddingOnCapacity(deps: OpeningDeps, requester: Requester, opening: PanelOpening): MaybePromise<Embedded> {
  const broken = deps.openingHealth.isBrokenNow(deps.db, opening.panel);
  if (broken === undefined) {
    return deps.openingHealth
      .isBroken(deps.db, opening.panel)
      .then((known) => embeddingIfServed(deps, requester, opening, known));
  }
  return embeddingIfServed(deps, requester, opening, broken);
}

function embeddingIfServed(
  deps: OpeningDeps,
  requester: Requester,
  { panel, roles }: PanelOpening,
  broken: boolean,
): MaybePromise<Embedded> {
  if (broken) throw deps.openingHealth.unavailable();
  const viewer = { ...requester, roles };
  const now = deps.embedding.embeddedNow(panel, viewer);
  return now
    ? { panel, embedding: now }
    : deps.embedding.embedFor(panel, viewer).then(
        (made) => ({ panel, embedding: made }),
        async (error: unknown) => {
          // The capacity paused since it was last read (servesNow answers from memory): the paused capacity's 503.
          await requireServingCapacity(deps.openingCapacity, requester, true);
          // Power BI says the report is gone or unreadable: recorded, and the person reads that the panel is
          // unavailable rather than Power BI's error (which the embedding service has logged).
          throw (await deps.openingHealth.brokenByOpening(deps.db, panel, error)) ?? error;
        },
      );
}

/**
 * GET /paineis/{id}: the panel with its embed token, as prepared bytes, and the opening recorded in the background
 * (usage); `openingId` is the record's id, for the viewer's report of its load times.
 */
export function openForViewing(
  deps: OpeningDeps,
  id: number,
  requester: Requester,
  papel: string | undefined,
): MaybePromise<{ answer: PreparedJson; openingId: string }> {
  return whenReady(embed(deps, id, requester, papel), ({ panel, embedding }) => {
    const openingId = deps.openingRecorder.record({
      usuarioId: requester.id,
      painelId: panel.id,
      identidade: embedding.identity?.username ?? null,
      papeis: embedding.identity?.roles ?? [],
      requestId: embedding.requestId,
      tokenDoCache: embedding.fromCache,
    });
    return { answer: preparedOpening(panel, embedding.info, true), openingId };
  });
}

/** GET /paineis/{id}/token: a new embed token, to renew it without reloading the report. */
export function renewedToken(
  deps: OpeningDeps,
  id: number,
  requester: Requester,
  papel: string | undefined,
): MaybePromise<PreparedJson> {
  return whenReady(embed(deps, id, requester, papel), ({ panel, embedding }) =>
    preparedOpening(panel, embedding.info, false),
  );
}

/** The viewer's load times and errors for one of this person's openings of a panel they may still open. */
export async function reportOpeningTimes(
  deps: OpeningDeps,
  requester: Requester,
  times: Omit<OpeningTimes, 'usuarioId'>,
): Promise<void> {
  await requireVisiblePanel(deps.db, times.painelId, requester);
  deps.openingRecorder.report({ ...times, usuarioId: requester.id });
}
