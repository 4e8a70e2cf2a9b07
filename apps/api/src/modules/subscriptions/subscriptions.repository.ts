import { and, asc, desc, eq, gt, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import { ASSINATURA_MESSAGES, limiteEnviarAgora, MAX_ASSINATURAS_POR_PESSOA } from '@paineis/contract/subscriptions';
import type { FormatoAssinatura, Frequencia } from '@paineis/contract/subscriptions';
import type { Db } from '../../db/client.ts';
import {
  arquivoDestinatarios,
  arquivosAssinatura,
  assinaturaGrupos,
  assinaturas,
  assinaturaUsuarios,
  enviosAssinatura,
  grupos,
  paineis,
  pedidosEnvio,
  usuarios,
  visoesSalvas,
} from '../../db/schema.ts';
import { byNome } from '../../lib/collation.ts';
import { conflict, invalid, notFound, throttled } from '../../lib/domain-failure.ts';
import { changesBetween, recordAudit, type AuditActor } from '../audit/audit.ts';

/**
 * E-mail subscriptions (docs/requirements.md#subscriptions): what each person subscribed, an administrator's
 * recipients, the 'Enviar agora' queued and the files too large to attach. Reads the panel's name, the people, the
 * groups and the saved view named, as decision 008 lists.
 */

/** The fields a subscription's owner chooses (the schedule, the content, the format). */
export interface SubscriptionFields {
  formato: FormatoAssinatura;
  frequencia: Frequencia;
  /** Null for 'apos-atualizacao'. */
  hora: string | null;
  diaSemana: number | null;
  diaMes: number | null;
  /** 'apos-atualizacao' only: its quiet window, in hours. */
  intervaloHoras: number | null;
  fusoHorario: string;
  pagina: string | null;
  visaoId: string | null;
}

/** Recipients by id, as a request names them. */
export interface RecipientIds {
  usuarios: string[];
  grupos: string[];
}

export interface Person {
  id: string;
  displayName: string;
  email: string;
}

/** An administrator's recipients, by name. */
export interface Recipients {
  usuarios: Person[];
  grupos: { id: string; displayName: string }[];
}

/** A subscription as stored, with its panel's and saved view's names and its owner. */
export interface SubscriptionRecord extends SubscriptionFields {
  id: string;
  painelId: number;
  nomePainel: string;
  permiteExportacao: boolean;
  nomeVisao: string | null;
  comDestinatarios: boolean;
  ativa: boolean;
  proximoEnvio: Date | null;
  ultimoEnvio: Date | null;
  ultimaFalha: string | null;
  ultimaFalhaEm: Date | null;
  criadaEm: Date;
  dono: Person;
  /** Null when the owner alone receives it. */
  destinatarios: Recipients | null;
}

/** A subscription's schedule columns, selected as `Schedule` (./schedule.ts); the deliveries' queue reads them too. */
export const scheduleColumns = {
  frequencia: assinaturas.frequencia,
  hora: assinaturas.hora,
  diaSemana: assinaturas.diaSemana,
  diaMes: assinaturas.diaMes,
  fusoHorario: assinaturas.fusoHorario,
};

const columns = {
  id: assinaturas.id,
  painelId: assinaturas.painelId,
  nomePainel: paineis.nomePainel,
  permiteExportacao: paineis.permiteExportacao,
  formato: assinaturas.formato,
  ...scheduleColumns,
  intervaloHoras: assinaturas.intervaloHoras,
  pagina: assinaturas.pagina,
  visaoId: assinaturas.visaoId,
  nomeVisao: visoesSalvas.nome,
  comDestinatarios: assinaturas.comDestinatarios,
  ativa: assinaturas.ativa,
  proximoEnvio: assinaturas.proximoEnvio,
  ultimoEnvio: assinaturas.ultimoEnvio,
  ultimaFalha: assinaturas.ultimaFalha,
  ultimaFalhaEm: assinaturas.ultimaFalhaEm,
  criadaEm: assinaturas.criadaEm,
  donoId: usuarios.id,
  donoNome: usuarios.displayName,
  donoEmail: usuarios.email,
};

/** Subscriptions with what `where` selects, newest first, with their recipients. */
async function selectSubscriptions(db: Db, where: SQL | undefined): Promise<SubscriptionRecord[]> {
  const found = await db
    .select(columns)
    .from(assinaturas)
    .innerJoin(paineis, eq(paineis.id, assinaturas.painelId))
    .innerJoin(usuarios, eq(usuarios.id, assinaturas.usuarioId))
    .leftJoin(visoesSalvas, eq(visoesSalvas.id, assinaturas.visaoId))
    .where(where)
    .orderBy(desc(assinaturas.criadaEm), desc(assinaturas.id));
  const recipients = await recipientsOf(
    db,
    found.filter((r) => r.comDestinatarios).map((r) => r.id),
  );
  return found.map(({ donoId, donoNome, donoEmail, ...r }) => ({
    ...r,
    dono: { id: donoId, displayName: donoNome, email: donoEmail },
    destinatarios: r.comDestinatarios ? (recipients.get(r.id) ?? { usuarios: [], grupos: [] }) : null,
  }));
}

/** The recipients of these subscriptions, each list by name. */
async function recipientsOf(db: Db, ids: string[]): Promise<Map<string, Recipients>> {
  const found = new Map<string, Recipients>(ids.map((id) => [id, { usuarios: [], grupos: [] }]));
  if (ids.length === 0) return found;
  const [people, groups] = await Promise.all([
    db
      .select({
        assinaturaId: assinaturaUsuarios.assinaturaId,
        id: usuarios.id,
        displayName: usuarios.displayName,
        email: usuarios.email,
      })
      .from(assinaturaUsuarios)
      .innerJoin(usuarios, eq(usuarios.id, assinaturaUsuarios.usuarioId))
      .where(inArray(assinaturaUsuarios.assinaturaId, ids))
      .orderBy(asc(usuarios.nomeOrdenacao), asc(usuarios.id)),
    db
      .select({ assinaturaId: assinaturaGrupos.assinaturaId, id: grupos.id, nome: grupos.nome })
      .from(assinaturaGrupos)
      .innerJoin(grupos, eq(grupos.id, assinaturaGrupos.grupoId))
      .where(inArray(assinaturaGrupos.assinaturaId, ids)),
  ]);
  for (const { assinaturaId, ...person } of people) found.get(assinaturaId)!.usuarios.push(person);
  groups.sort((a, b) => byNome(a, b) || (a.id < b.id ? -1 : 1));
  for (const { assinaturaId, id, nome } of groups) found.get(assinaturaId)!.grupos.push({ id, displayName: nome });
  return found;
}

/** This person's subscriptions, newest first. */
export const ownSubscriptions = (db: Db, usuarioId: string) =>
  selectSubscriptions(db, eq(assinaturas.usuarioId, usuarioId));

/** Every subscription, newest first (administrators' list). */
export const everySubscription = (db: Db) => selectSubscriptions(db, undefined);

/**
 * Whose subscription a change may reach: one person's own (`usuarioId`), or anyone's (`null`, an administrator
 * pausing, resuming or deleting another's).
 */
export type OwnerScope = string | null;

/** The subscription `id`, if it is within `usuarioId`'s scope. */
const inScope = (id: string, usuarioId: OwnerScope) =>
  usuarioId === null ? eq(assinaturas.id, id) : and(eq(assinaturas.id, id), eq(assinaturas.usuarioId, usuarioId));

/** One of this person's subscriptions (anyone's for `null`); null for anyone else's, as for one that does not exist. */
export async function ownSubscription(db: Db, id: string, usuarioId: OwnerScope): Promise<SubscriptionRecord | null> {
  const [found] = await selectSubscriptions(db, inScope(id, usuarioId));
  return found ?? null;
}

const notFoundSubscription = () => notFound(ASSINATURA_MESSAGES.naoEncontrada);

/** The subscription as the audit trail keeps it: the recipients keyed by id, so each added or removed is one entry. */
function forAudit(s: SubscriptionRecord) {
  return {
    formato: s.formato,
    frequencia: s.frequencia,
    hora: s.hora,
    diaSemana: s.diaSemana,
    diaMes: s.diaMes,
    intervaloHoras: s.intervaloHoras,
    fusoHorario: s.fusoHorario,
    pagina: s.pagina,
    visao: s.nomeVisao,
    ativa: s.ativa,
    dono: s.dono.email,
    destinatarios: s.destinatarios && {
      usuarios: Object.fromEntries(s.destinatarios.usuarios.map((p) => [p.id, p.displayName])),
      grupos: Object.fromEntries(s.destinatarios.grupos.map((g) => [g.id, g.displayName])),
    },
  };
}

/**
 * 404 unless the view is this person's own of this panel, or one of the panel's views ('Visão do painel'), which
 * everyone who may open the panel sees (the subscription's panel is one they may open).
 */
async function requireOwnView(db: Db, visaoId: string, usuarioId: string, painelId: number): Promise<void> {
  const [view] = await db
    .select({ id: visoesSalvas.id })
    .from(visoesSalvas)
    .where(
      and(
        eq(visoesSalvas.id, visaoId),
        eq(visoesSalvas.painelId, painelId),
        or(visoesSalvas.doPainel, eq(visoesSalvas.usuarioId, usuarioId)),
      ),
    );
  if (!view) throw notFound(ASSINATURA_MESSAGES.visaoNaoEncontrada);
}

/** Replaces the recipients; 400 when a person or a group named does not exist. */
async function replaceRecipients(db: Db, assinaturaId: string, recipients: RecipientIds): Promise<void> {
  const people = [...new Set(recipients.usuarios)];
  const groups = [...new Set(recipients.grupos)];
  const [foundPeople, foundGroups] = await Promise.all([
    people.length === 0 ? [] : db.select({ id: usuarios.id }).from(usuarios).where(inArray(usuarios.id, people)),
    groups.length === 0 ? [] : db.select({ id: grupos.id }).from(grupos).where(inArray(grupos.id, groups)),
  ]);
  if (foundPeople.length !== people.length || foundGroups.length !== groups.length) {
    throw invalid(ASSINATURA_MESSAGES.destinatarioDesconhecido);
  }
  await db.delete(assinaturaUsuarios).where(eq(assinaturaUsuarios.assinaturaId, assinaturaId));
  await db.delete(assinaturaGrupos).where(eq(assinaturaGrupos.assinaturaId, assinaturaId));
  if (people.length > 0) {
    await db.insert(assinaturaUsuarios).values(people.map((usuarioId) => ({ assinaturaId, usuarioId })));
  }
  if (groups.length > 0) {
    await db.insert(assinaturaGrupos).values(groups.map((grupoId) => ({ assinaturaId, grupoId })));
  }
}

export interface NewSubscription extends SubscriptionFields {
  painelId: number;
  usuarioId: string;
  /** Null for 'apos-atualizacao', which waits for a refresh instead. */
  proximoEnvio: Date | null;
  /** 'apos-atualizacao': refreshes that end after this moment are delivered (its creation). */
  atualizacoesDesde: Date | null;
  /** An administrator's recipients; the owner alone receives it without them. */
  destinatarios: RecipientIds | null;
}

/**
 * Creates a subscription, with its audit record (none for `actor` null: the demo's seeded data, whose audit trail is
 * a history of its own), or nothing: 404 for a saved view that is not the owner's of this
 * panel, 400 for a recipient who does not exist, 409 past MAX_ASSINATURAS_POR_PESSOA. The count and the insert hold a
 * lock of the owner until the transaction ends, so two creations at once cannot both pass the limit.
 */
export async function insertSubscription(
  db: Db,
  input: NewSubscription,
  actor: AuditActor | null,
): Promise<SubscriptionRecord> {
  const id = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`assinaturas/${input.usuarioId}`}, 0))`);
    if (input.visaoId !== null) await requireOwnView(tx, input.visaoId, input.usuarioId, input.painelId);
    const [counted] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(assinaturas)
      .where(eq(assinaturas.usuarioId, input.usuarioId));
    if ((counted?.n ?? 0) >= MAX_ASSINATURAS_POR_PESSOA) throw conflict(ASSINATURA_MESSAGES.limite);
    const { destinatarios, ...fields } = input;
    const [created] = await tx
      .insert(assinaturas)
      .values({ ...fields, comDestinatarios: destinatarios !== null })
      .returning({ id: assinaturas.id });
    if (destinatarios) await replaceRecipients(tx, created!.id, destinatarios);
    if (actor) {
      const depois = (await ownSubscription(tx, created!.id, input.usuarioId))!;
      await recordAudit(tx, actor, {
        objeto: 'assinatura',
        acao: 'criacao',
        objetoId: created!.id,
        objetoNome: depois.nomePainel,
        depois: forAudit(depois),
      });
    }
    return created!.id;
  });
  return (await ownSubscription(db, id, input.usuarioId))!;
}

/** What a change writes: the fields as merged, whether it is on, its next delivery and, when given, new recipients. */
export interface SubscriptionChange extends SubscriptionFields {
  ativa: boolean;
  proximoEnvio: Date | null;
  /** 'apos-atualizacao': set when it starts waiting again (chosen, or resumed), so earlier refreshes are not sent. */
  atualizacoesDesde?: Date | null;
  destinatarios?: RecipientIds | undefined;
}

/**
 * The audit's changes of a subscription, with its owner named when someone else (an administrator) made them: the
 * owner does not change, so the diff alone would not say whose it was.
 */
function auditedChanges(antes: SubscriptionRecord | null, depois: SubscriptionRecord | null, actor: AuditActor) {
  const changes = changesBetween(antes && forAudit(antes), depois && forAudit(depois));
  const owner = (antes ?? depois)!.dono;
  return actor.usuarioId === owner.id || changes.some((c) => c.campo === 'dono')
    ? changes
    : [{ campo: 'dono', depois: owner.email }, ...changes];
}

/**
 * Changes one of this person's subscriptions (404 for anyone else's; anyone's for `null`): `decide` merges the request
 * into the stored subscription, locked until the transaction ends, and may refuse; the change and its audit record
 * are written together, or nothing.
 */
export async function changeSubscription(
  db: Db,
  id: string,
  usuarioId: OwnerScope,
  decide: (current: SubscriptionRecord) => SubscriptionChange,
  actor: AuditActor,
): Promise<SubscriptionRecord> {
  await db.transaction(async (tx) => {
    const antes = await lockOwn(tx, id, usuarioId);
    const { destinatarios, ...change } = decide(antes);
    if (change.visaoId !== null && change.visaoId !== antes.visaoId) {
      await requireOwnView(tx, change.visaoId, antes.dono.id, antes.painelId);
    }
    await tx
      .update(assinaturas)
      .set({
        ...change,
        ...(destinatarios ? { comDestinatarios: true } : {}),
        atualizadaEm: sql`now()`,
      })
      .where(eq(assinaturas.id, id));
    if (destinatarios) await replaceRecipients(tx, id, destinatarios);
    const depois = (await ownSubscription(tx, id, usuarioId))!;
    const mudancas = auditedChanges(antes, depois, actor);
    // A change that changed nothing is not recorded (the owner alone named is no change).
    if (mudancas.some((c) => c.campo !== 'dono')) {
      await recordAudit(tx, actor, {
        objeto: 'assinatura',
        acao: 'alteracao',
        objetoId: id,
        objetoNome: depois.nomePainel,
        mudancas,
      });
    }
  });
  return (await ownSubscription(db, id, usuarioId))!;
}

/** Locks one of this person's subscriptions (anyone's for `null`) until the transaction ends, and reads it; else 404. */
async function lockOwn(tx: Db, id: string, usuarioId: OwnerScope): Promise<SubscriptionRecord> {
  const [locked] = await tx
    .select({ id: assinaturas.id })
    .from(assinaturas)
    .where(inScope(id, usuarioId))
    .for('update');
  const found = locked && (await ownSubscription(tx, id, usuarioId));
  if (!found) throw notFoundSubscription();
  return found;
}

/**
 * Deletes one of this person's subscriptions (anyone's for `null`), its deliveries and files with it; 404 for anyone
 * else's.
 */
export async function deleteSubscription(db: Db, id: string, usuarioId: OwnerScope, actor: AuditActor): Promise<void> {
  await db.transaction(async (tx) => {
    const antes = await lockOwn(tx, id, usuarioId);
    await tx.delete(assinaturas).where(eq(assinaturas.id, id));
    await recordAudit(tx, actor, {
      objeto: 'assinatura',
      acao: 'exclusao',
      objetoId: id,
      objetoNome: antes.nomePainel,
      mudancas: auditedChanges(antes, null, actor),
    });
  });
}

/** The 'Enviar agora' one person may ask within a window, across instances. */
export interface SendNowAllowance {
  limit: number;
  windowSeconds: number;
}

/**
 * Counts this person's 'Enviar agora' in the window, inside the caller's transaction and under a lock of the person:
 * 429 (with when the oldest leaves the window) past the allowance, else this one is counted.
 */
async function countSendNow(tx: Db, usuarioId: string, allowance: SendNowAllowance, now: Date): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`enviar-agora/${usuarioId}`}, 0))`);
  const since = new Date(now.getTime() - allowance.windowSeconds * 1000);
  const asked = await tx
    .select({ em: pedidosEnvio.em })
    .from(pedidosEnvio)
    .where(and(eq(pedidosEnvio.usuarioId, usuarioId), gt(pedidosEnvio.em, since)))
    .orderBy(desc(pedidosEnvio.em))
    .limit(allowance.limit);
  if (asked.length >= allowance.limit) {
    // The one that leaves the window first frees the next request.
    const freedAt = asked[asked.length - 1]!.em.getTime() + allowance.windowSeconds * 1000;
    const seconds = Math.max(1, Math.ceil((freedAt - now.getTime()) / 1000));
    throw throttled(limiteEnviarAgora(allowance.limit, Math.ceil(seconds / 60)), seconds);
  }
  await tx.insert(pedidosEnvio).values({ usuarioId, em: now });
}

/** The hourly purge: 'Enviar agora' counted before `before` no longer count. */
export async function purgeSendNowBefore(db: Db, before: Date): Promise<void> {
  await db.delete(pedidosEnvio).where(lte(pedidosEnvio.em, before));
}

/**
 * Queues an 'Enviar agora' of one of this person's subscriptions (404 for anyone else's), due at once, with its audit
 * record; 409 when it was paused meanwhile, or while another 'Enviar agora' of it is waiting or under way; 429 past
 * the person's allowance. The subscription stays locked from the check to the insert, so two requests at once queue
 * one delivery.
 */
export async function queueManualDelivery(
  db: Db,
  id: string,
  usuarioId: string,
  allowance: SendNowAllowance,
  actor: AuditActor,
  now: Date,
): Promise<{ envioId: string; estado: 'pendente' }> {
  return db.transaction(async (tx) => {
    const subscription = await lockOwn(tx, id, usuarioId);
    if (!subscription.ativa) throw conflict(ASSINATURA_MESSAGES.pausada);
    const [underWay] = await tx
      .select({ id: enviosAssinatura.id })
      .from(enviosAssinatura)
      .where(
        and(
          eq(enviosAssinatura.assinaturaId, id),
          eq(enviosAssinatura.manual, true),
          inArray(enviosAssinatura.estado, ['pendente', 'executando']),
        ),
      )
      .limit(1);
    if (underWay) throw conflict(ASSINATURA_MESSAGES.envioEmAndamento);
    await countSendNow(tx, usuarioId, allowance, now);
    const [queued] = await tx
      .insert(enviosAssinatura)
      .values({ assinaturaId: id, ocorrencia: now, manual: true, estado: 'pendente', disponivelEm: now })
      .returning({ id: enviosAssinatura.id });
    await recordAudit(tx, actor, {
      objeto: 'assinatura',
      acao: 'envio_solicitado',
      objetoId: id,
      objetoNome: subscription.nomePainel,
      mudancas: [{ campo: 'envio', depois: queued!.id }],
    });
    return { envioId: queued!.id, estado: 'pendente' as const };
  });
}

/**
 * A stored file as one of its recipients may download it: its panel and the identity it was rendered with, for the
 * caller to judge them now. Null for anyone it was not sent to, and once it expired.
 */
export async function recipientFile(
  db: Db,
  id: string,
  usuarioId: string,
  now: Date,
): Promise<{ nome: string; tipo: string; conteudo: Uint8Array; painelId: number; identidade: string } | null> {
  const [found] = await db
    .select({
      nome: arquivosAssinatura.nome,
      tipo: arquivosAssinatura.tipo,
      conteudo: arquivosAssinatura.conteudo,
      identidade: arquivosAssinatura.identidade,
      painelId: assinaturas.painelId,
    })
    .from(arquivosAssinatura)
    .innerJoin(
      arquivoDestinatarios,
      and(eq(arquivoDestinatarios.arquivoId, arquivosAssinatura.id), eq(arquivoDestinatarios.usuarioId, usuarioId)),
    )
    .innerJoin(enviosAssinatura, eq(enviosAssinatura.id, arquivosAssinatura.envioId))
    .innerJoin(assinaturas, eq(assinaturas.id, enviosAssinatura.assinaturaId))
    .where(and(eq(arquivosAssinatura.id, id), gt(arquivosAssinatura.expiraEm, now)));
  return found ?? null;
}
