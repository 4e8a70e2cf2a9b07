import {
  ASSINATURA_MESSAGES,
  assinaturaPatchBody,
  FALHAS_ENVIO,
  type Assinatura,
  type AssinaturaBody,
  type AssinaturaPatchBody,
  type EnvioSolicitado,
  type SituacaoAssinatura,
} from '@paineis/contract/subscriptions';
import type { Config } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import type { MailTransport } from '../../integrations/mail/mail-transport.ts';
import { conflict, forbidden, invalid, notFound, unavailable } from '../../lib/domain-failure.ts';
import type { AuditActor } from '../audit/audit.ts';
import { attachment } from '../exports/export-answers.ts';
import { panelAudience, personOf } from '../panels/access-model.ts';
import { requireVisiblePanel } from '../panels/panel-access.ts';
import type { Requester } from '../panels/requester.ts';
import { directoryEntries, groupMembership } from '../users/users.service.ts';
import { identityOf, ownerStop } from './recipients.ts';
import { nextOnClock } from './schedule.ts';
import {
  changeSubscription,
  deleteSubscription,
  everySubscription,
  insertSubscription,
  ownSubscription,
  ownSubscriptions,
  purgeSendNowBefore,
  queueManualDelivery,
  recipientFile,
  type SubscriptionChange,
  type SubscriptionRecord,
} from './subscriptions.repository.ts';

/**
 * E-mail subscriptions (docs/requirements.md#subscriptions): each person's own, on panels they may open and export,
 * and an administrator's for people and groups. A subscription's contents are its owner's alone: anyone else's is
 * 404, except that every administrator lists them all (GET /assinaturas/todas) and may pause, resume or delete any
 * (docs/SECURITY.md).
 */

/** What the subscriptions need of the app. */
export interface SubscriptionDeps {
  db: Db;
  config: Pick<Config, 'usage' | 'subscriptions' | 'rlsUsername'>;
  mail: MailTransport | null;
  deliveries: { wake(): void };
}

/**
 * Whether the subscription is sent now, and why not: paused; stopped by its owner (inactive, or no longer an
 * administrator for one for others); or nobody it is for may open the panel now, as the access model answers (its
 * owner, or any of the people named or anyone in the groups named at any depth).
 */
async function situationOf(
  db: Db,
  s: SubscriptionRecord,
  viewerId: string | null,
): Promise<{ situacao: SituacaoAssinatura; motivoSituacao: string | null }> {
  if (!s.ativa) return { situacao: 'pausada', motivoSituacao: null };
  const [audience, people] = await Promise.all([panelAudience(db, s.painelId), directoryEntries(db)]);
  // Its owner reads the reasons about themselves in their own words; everyone else reads them about the owner.
  const own = viewerId === s.dono.id;
  const stop = ownerStop(people.get(s.dono.id), s.destinatarios !== null);
  if (stop) {
    return {
      situacao: 'sem-acesso',
      motivoSituacao: own && stop === ASSINATURA_MESSAGES.donoInativo ? ASSINATURA_MESSAGES.contaInativa : stop,
    };
  }
  const noOne = {
    situacao: 'sem-acesso',
    motivoSituacao: s.destinatarios
      ? FALHAS_ENVIO.semDestinatarios
      : own
        ? ASSINATURA_MESSAGES.semAcesso
        : ASSINATURA_MESSAGES.donoSemAcesso,
  } as const;
  if (!audience) return noOne;
  const opens = (usuarioId: string) => {
    const entry = people.get(usuarioId);
    return entry !== undefined && audience.evaluate(personOf(entry)).opens;
  };
  const reached = !s.destinatarios
    ? opens(s.dono.id)
    : s.destinatarios.usuarios.some((person) => opens(person.id)) ||
      (s.destinatarios.grupos.length > 0 && (await reachesAGroup(db, s.destinatarios.grupos, opens)));
  return reached ? { situacao: 'ativa', motivoSituacao: null } : noOne;
}

/** Whether anyone in these groups, at any depth, opens. */
async function reachesAGroup(db: Db, groups: { id: string }[], opens: (usuarioId: string) => boolean) {
  const membership = await groupMembership(db);
  return groups.some((group) => [...membership.peopleWithPaths(group.id).keys()].some(opens));
}

const iso = (at: Date | null) => at?.toISOString() ?? null;

/** The answers for these subscriptions, each with its situation now. */
async function answers(db: Db, found: SubscriptionRecord[], viewerId: string | null): Promise<Assinatura[]> {
  return Promise.all(
    found.map(async (s): Promise<Assinatura> => {
      const { situacao, motivoSituacao } = await situationOf(db, s, viewerId);
      return {
        id: s.id,
        painelId: s.painelId,
        nomePainel: s.nomePainel,
        formato: s.formato,
        frequencia: s.frequencia,
        hora: s.hora,
        diaSemana: s.diaSemana,
        diaMes: s.diaMes,
        intervaloHoras: s.intervaloHoras,
        fusoHorario: s.fusoHorario,
        pagina: s.pagina,
        visaoId: s.visaoId,
        nomeVisao: s.nomeVisao,
        ativa: s.ativa,
        situacao,
        motivoSituacao,
        proximoEnvio: iso(s.proximoEnvio),
        ultimoEnvio: iso(s.ultimoEnvio),
        ultimaFalha:
          s.ultimaFalha !== null && s.ultimaFalhaEm !== null
            ? { em: s.ultimaFalhaEm.toISOString(), motivo: s.ultimaFalha }
            : null,
        dono: s.dono,
        destinatarios: s.destinatarios,
        criadaEm: s.criadaEm.toISOString(),
      };
    }),
  );
}

const answer = async (db: Db, s: SubscriptionRecord, viewerId: string) => (await answers(db, [s], viewerId))[0]!;

/** Recipients are an administrator's to name. */
function checkRecipientsAllowed(requester: Requester, destinatarios: unknown): void {
  if (destinatarios !== undefined && !requester.isAdmin) throw forbidden(ASSINATURA_MESSAGES.somenteAdministradores);
}

/** POST /assinaturas: on a panel the person may open (404) whose export is on (403). */
export async function createSubscription(
  deps: SubscriptionDeps,
  requester: Requester,
  body: AssinaturaBody,
  actor: AuditActor,
  now = new Date(),
): Promise<Assinatura> {
  const panel = await requireVisiblePanel(deps.db, body.painelId, requester);
  if (!panel.permiteExportacao) throw forbidden(ASSINATURA_MESSAGES.exportacaoDesativada);
  checkRecipientsAllowed(requester, body.destinatarios);
  const schedule = {
    frequencia: body.frequencia,
    hora: body.hora ?? null,
    diaSemana: body.diaSemana ?? null,
    diaMes: body.diaMes ?? null,
    intervaloHoras: body.intervaloHoras ?? null,
    fusoHorario: body.fusoHorario ?? deps.config.usage.timeZone,
  };
  const created = await insertSubscription(
    deps.db,
    {
      ...schedule,
      painelId: panel.id,
      usuarioId: requester.id,
      formato: body.formato,
      pagina: body.pagina ?? null,
      visaoId: body.visaoId ?? null,
      proximoEnvio: nextOnClock(schedule, now),
      // A refresh that ended before the subscription was made is not sent.
      atualizacoesDesde: schedule.frequencia === 'apos-atualizacao' ? now : null,
      destinatarios: body.destinatarios
        ? { usuarios: body.destinatarios.usuarios ?? [], grupos: body.destinatarios.grupos ?? [] }
        : null,
    },
    actor,
  );
  return answer(deps.db, created, requester.id);
}

/** GET /assinaturas: the caller's own, newest first. */
export async function listOwnSubscriptions(db: Db, requester: Requester): Promise<Assinatura[]> {
  return answers(db, await ownSubscriptions(db, requester.id), requester.id);
}

/** GET /assinaturas/todas: every subscription, newest first (administrators). */
export async function listEverySubscription(db: Db): Promise<Assinatura[]> {
  return answers(db, await everySubscription(db), null);
}

/** The first problem of the schedule as merged, in the contract's own words. */
function checkDays(
  schedule: Pick<SubscriptionChange, 'frequencia' | 'hora' | 'diaSemana' | 'diaMes' | 'intervaloHoras'>,
): void {
  // A time absent is checked below, where a clock kind needs one.
  const checked = assinaturaPatchBody.safeParse({ ...schedule, hora: schedule.hora ?? undefined });
  if (!checked.success) throw invalid(checked.error.issues[0]!.message);
  // Switched from 'apos-atualizacao' to a clock without saying when.
  if (schedule.frequencia !== 'apos-atualizacao' && schedule.hora === null) {
    throw invalid(ASSINATURA_MESSAGES.horaObrigatoria);
  }
}

/**
 * A PATCH merged into the stored subscription. A new `frequencia` drops the days of the old one (it comes with its
 * own); a day must suit the kind that results. Choosing a page drops the saved view, and the other way round.
 * Pausing clears the next delivery; resuming, or changing the schedule while on, computes it from now.
 */
function mergedChange(current: SubscriptionRecord, patch: AssinaturaPatchBody, now: Date): SubscriptionChange {
  const frequencia = patch.frequencia ?? current.frequencia;
  const kindChanged = frequencia !== current.frequencia;
  const day = <K extends 'diaSemana' | 'diaMes'>(key: K) =>
    patch[key] !== undefined ? patch[key] : kindChanged ? null : current[key];
  const afterRefresh = frequencia === 'apos-atualizacao';
  const schedule = {
    frequencia,
    // 'apos-atualizacao' has no time: the stored one goes; a time named for it is refused below.
    hora: patch.hora ?? (afterRefresh ? null : current.hora),
    // 'diaria' has no day: the stored ones go; a day named for it is refused below.
    diaSemana: day('diaSemana') ?? null,
    diaMes: day('diaMes') ?? null,
    intervaloHoras:
      patch.intervaloHoras !== undefined ? patch.intervaloHoras : kindChanged ? null : current.intervaloHoras,
    fusoHorario: patch.fusoHorario ?? current.fusoHorario,
  };
  checkDays(schedule);
  const pagina = patch.pagina !== undefined ? patch.pagina : patch.visaoId != null ? null : current.pagina;
  const visaoId = patch.visaoId !== undefined ? patch.visaoId : patch.pagina != null ? null : current.visaoId;
  const ativa = patch.ativa ?? current.ativa;
  const scheduleChanged =
    schedule.frequencia !== current.frequencia ||
    schedule.hora !== current.hora ||
    schedule.diaSemana !== current.diaSemana ||
    schedule.diaMes !== current.diaMes ||
    schedule.fusoHorario !== current.fusoHorario;
  const proximoEnvio = !ativa
    ? null
    : !current.ativa || scheduleChanged || current.proximoEnvio === null
      ? nextOnClock(schedule, now)
      : current.proximoEnvio;
  // Waiting for refreshes from now on when it starts waiting: the refreshes of before, or of while paused, are not sent.
  const startsWaiting = afterRefresh && ativa && (kindChanged || !current.ativa);
  return {
    ...schedule,
    ...(startsWaiting ? { atualizacoesDesde: now } : {}),
    formato: patch.formato ?? current.formato,
    pagina: pagina ?? null,
    visaoId: visaoId ?? null,
    ativa,
    proximoEnvio,
    destinatarios: patch.destinatarios && {
      usuarios: patch.destinatarios.usuarios ?? [],
      grupos: patch.destinatarios.grupos ?? [],
    },
  };
}

/**
 * PATCH /assinaturas/{id}: the caller's own; an administrator's on anyone's, but then only `ativa` (pausing or
 * resuming it): the contents stay the owner's (403). `destinatarios` is an administrator's, on any of their own
 * subscriptions: it replaces the recipients, and makes a personal subscription an administrator's one (the owner
 * then receives it only if named).
 */
export async function updateSubscription(
  db: Db,
  id: string,
  requester: Requester,
  patch: AssinaturaPatchBody,
  actor: AuditActor,
  now = new Date(),
): Promise<Assinatura> {
  checkRecipientsAllowed(requester, patch.destinatarios);
  const onlyPausing = Object.entries(patch).every(([key, value]) => key === 'ativa' || value === undefined);
  const changed = await changeSubscription(
    db,
    id,
    requester.isAdmin ? null : requester.id,
    (current) => {
      if (current.dono.id !== requester.id && !onlyPausing) throw forbidden(ASSINATURA_MESSAGES.somenteDonoAltera);
      return mergedChange(current, patch, now);
    },
    actor,
  );
  return answer(db, changed, requester.id);
}

/** DELETE /assinaturas/{id}: the caller's own; any, for an administrator. */
export const removeSubscription = (db: Db, id: string, requester: Requester, actor: AuditActor) =>
  deleteSubscription(db, id, requester.isAdmin ? null : requester.id, actor);

/**
 * POST /assinaturas/{id}/enviar-agora: queues a delivery due now and wakes this instance's worker. Its owner's alone
 * (another administrator: 403; anyone else: 404), and only while they may still make it: a subscription for others
 * needs its owner to be an administrator still (403). Refused while paused (409), when the panel's export is off
 * (403), when nobody it is for may open the panel (409), without a mail transport (503), while another 'Enviar agora'
 * of it is waiting or under way (409), and past the person's allowance per hour (429 with Retry-After).
 */
export async function sendNow(
  deps: SubscriptionDeps,
  id: string,
  requester: Requester,
  actor: AuditActor,
  now = new Date(),
): Promise<EnvioSolicitado> {
  const found = await ownSubscription(deps.db, id, requester.isAdmin ? null : requester.id);
  if (!found) throw notFound(ASSINATURA_MESSAGES.naoEncontrada);
  if (found.dono.id !== requester.id) throw forbidden(ASSINATURA_MESSAGES.somenteDonoEnvia);
  if (found.destinatarios && !requester.isAdmin) throw forbidden(ASSINATURA_MESSAGES.somenteAdministradores);
  if (!found.ativa) throw conflict(ASSINATURA_MESSAGES.pausada);
  if (!found.permiteExportacao) throw forbidden(ASSINATURA_MESSAGES.exportacaoDesativada);
  // Outside the transaction that queues it: the panels' and people's caches may have to read the database.
  if ((await situationOf(deps.db, found, requester.id)).situacao !== 'ativa') {
    throw conflict(found.destinatarios ? FALHAS_ENVIO.semDestinatarios : ASSINATURA_MESSAGES.semAcesso);
  }
  if (!deps.mail) throw unavailable(ASSINATURA_MESSAGES.semTransporte);
  const { sendNowLimit: limit, sendNowWindowSeconds: windowSeconds } = deps.config.subscriptions;
  const queued = await queueManualDelivery(deps.db, id, requester.id, { limit, windowSeconds }, actor, now);
  deps.deliveries.wake();
  return { ...queued, message: ASSINATURA_MESSAGES.envioSolicitado };
}

/**
 * GET /assinaturas/arquivos/{id}: a file too large to attach, for the recipients it was sent to until it expires, and
 * judged at download time: only while they may still open the panel, with the identity it was rendered with, and
 * while the panel's export is on.
 */
export async function subscriptionFile(
  deps: Pick<SubscriptionDeps, 'db' | 'config'>,
  id: string,
  requester: Requester,
  now = new Date(),
) {
  const { db, config } = deps;
  const file = await recipientFile(db, id, requester.id, now);
  if (!file) throw notFound(ASSINATURA_MESSAGES.arquivoNaoEncontrado);
  // Rendered for who they were then: someone who may no longer open the panel, or now sees other rows, gets nothing.
  const identity = await identityOf(db, file.painelId, requester.id, config.rlsUsername);
  if (!identity || identity.key !== file.identidade) throw notFound(ASSINATURA_MESSAGES.arquivoNaoEncontrado);
  // The panel as the access model judged it just now.
  if (!identity.panel.permiteExportacao) throw forbidden(ASSINATURA_MESSAGES.exportacaoDesativada);
  return {
    body: Buffer.from(file.conteudo),
    headers: {
      'content-type': file.tipo,
      'content-disposition': attachment(file.nome),
      'cache-control': 'private, no-store',
    },
  };
}

/** The hourly purge: the 'Enviar agora' counted that left the allowance's window. */
export const purgeSendNowCounts = (db: Db, config: Pick<Config, 'subscriptions'>, now = new Date()) =>
  purgeSendNowBefore(db, new Date(now.getTime() - config.subscriptions.sendNowWindowSeconds * 1000));
