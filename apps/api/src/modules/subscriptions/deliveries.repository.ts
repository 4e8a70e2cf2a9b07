import { and, asc, eq, lte, sql } from 'drizzle-orm';
import type { FormatoAssinatura } from '@paineis/contract/subscriptions';
import { rows, type Db } from '../../db/client.ts';
import {
  arquivoDestinatarios,
  arquivosAssinatura,
  assinaturaGrupos,
  assinaturas,
  assinaturaUsuarios,
  envioDestinatarios,
  enviosAssinatura,
  visoesSalvas,
} from '../../db/schema.ts';
import type { Schedule } from './schedule.ts';
import { scheduleColumns } from './subscriptions.repository.ts';

/**
 * The deliveries' queue (docs/decisions/020-subscription-deliveries.md): occurrences queued once per subscription and
 * moment (the unique index), each claimed by one instance at a time with FOR UPDATE SKIP LOCKED and a lease it renews,
 * and each recipient recorded the moment their message is accepted. Times are always the caller's `now`, never the
 * database's, so that the due-ness of everything follows one clock.
 */

/** A delivery as claimed by an instance. */
export interface DeliveryClaim {
  id: string;
  assinaturaId: string;
  ocorrencia: Date;
  manual: boolean;
  /** Attempts started, this one included. */
  tentativas: number;
  /** Until when this instance holds it, unless it renews the claim. */
  ocupadoAte: Date;
}

/** What a delivery needs of its subscription, with the saved view's state and page when it exports one. */
export interface SubscriptionToDeliver extends Schedule {
  id: string;
  painelId: number;
  usuarioId: string;
  formato: FormatoAssinatura;
  pagina: string | null;
  comDestinatarios: boolean;
  ativa: boolean;
  visao: { nome: string; estado: string; pagina: string | null } | null;
}

export type RecipientState = 'enviado' | 'sem-acesso';

const claimColumns = {
  id: enviosAssinatura.id,
  assinaturaId: enviosAssinatura.assinaturaId,
  ocorrencia: enviosAssinatura.ocorrencia,
  manual: enviosAssinatura.manual,
  tentativas: enviosAssinatura.tentativas,
  ocupadoAte: enviosAssinatura.ocupadoAte,
};

/**
 * Queues up to `limit` subscriptions whose next occurrence is due at `now`, in one transaction: each one's occurrence
 * becomes a delivery (once, whatever the instances: the unique index), and its next occurrence is `nextOf` it (null:
 * none, it no longer falls due). Rows another instance is queueing are skipped. Answers how many subscriptions were
 * taken.
 */
export async function queueDueBatch(
  db: Db,
  now: Date,
  limit: number,
  nextOf: (schedule: Schedule & { id: string }) => Date | null,
): Promise<number> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({
        id: assinaturas.id,
        proximoEnvio: assinaturas.proximoEnvio,
        ...scheduleColumns,
      })
      .from(assinaturas)
      .where(and(eq(assinaturas.ativa, true), lte(assinaturas.proximoEnvio, now)))
      .orderBy(asc(assinaturas.proximoEnvio))
      .limit(limit)
      .for('update', { skipLocked: true });
    if (due.length === 0) return 0;
    await tx
      .insert(enviosAssinatura)
      .values(due.map((s) => ({ assinaturaId: s.id, ocorrencia: s.proximoEnvio!, disponivelEm: now })))
      .onConflictDoNothing();
    const next = sql.join(
      due.map((s) => sql`(${s.id}::uuid, ${nextOf(s)?.toISOString() ?? null}::timestamptz)`),
      sql`, `,
    );
    await tx.execute(
      sql`update assinaturas set proximo_envio = proxima.em
          from (values ${next}) as proxima(id, em) where assinaturas.id = proxima.id`,
    );
    return due.length;
  });
}

/**
 * Queues up to `limit` subscriptions sent after each refresh ('apos-atualizacao') whose panel's dataset completed a
 * refresh they have not had, in one transaction (docs/requirements.md#subscriptions-after-refresh): the refresh's end is
 * the delivery's occurrence (once, whatever the instances: the unique index), and becomes the subscription's mark, so
 * that refresh is never queued again. A subscription in its quiet window (`intervalo_horas` since the last refresh was
 * queued) waits, and is queued when the window ends, for the newest refresh then. The dataset is the one the freshness
 * rounds found for the report the panel shows now (power-bi's tables, as decision 008 lists). Rows another instance is
 * queueing are skipped. Answers how many subscriptions were taken.
 */
export async function queueAfterRefreshBatch(db: Db, now: Date, limit: number): Promise<number> {
  const at = now.toISOString();
  return db.transaction(async (tx) => {
    const due = await rows<{ id: string; fim: string | Date }>(
      tx,
      sql`
      select s.id, d.ultima_atualizacao as fim
        from assinaturas s
        join paineis p on p.id = s.painel_id
        join painel_datasets l on l.painel_id = s.painel_id
         and l.workspace_id = lower(p.workspace_id) and l.report_id = lower(p.report_id)
        join datasets_atualizacao d on d.dataset_id = l.dataset_id
       where s.ativa and s.frequencia = 'apos-atualizacao'
         and d.ultima_atualizacao > coalesce(s.atualizacoes_desde, s.criada_em)
         and (s.intervalo_horas is null or s.atualizacao_enfileirada_em is null
              or s.atualizacao_enfileirada_em + make_interval(hours => s.intervalo_horas) <= ${at}::timestamptz)
       order by d.ultima_atualizacao, s.id
       limit ${limit}
       for update of s skip locked`,
    );
    const found = due.map((r) => ({ id: r.id, fim: new Date(r.fim) }));
    if (found.length === 0) return 0;
    await tx
      .insert(enviosAssinatura)
      .values(found.map((r) => ({ assinaturaId: r.id, ocorrencia: r.fim, disponivelEm: now })))
      .onConflictDoNothing();
    const marks = sql.join(
      found.map((r) => sql`(${r.id}::uuid, ${r.fim.toISOString()}::timestamptz)`),
      sql`, `,
    );
    await tx.execute(
      sql`update assinaturas set atualizacoes_desde = marca.fim, atualizacao_enfileirada_em = ${at}::timestamptz
          from (values ${marks}) as marca(id, fim) where assinaturas.id = marca.id`,
    );
    return found.length;
  });
}

/** The panels whose datasets a subscription sent after each refresh waits on: their refreshes are read more often. */
export async function panelsAwaitingRefresh(db: Db): Promise<number[]> {
  const found = await db
    .selectDistinct({ painelId: assinaturas.painelId })
    .from(assinaturas)
    .where(and(eq(assinaturas.ativa, true), eq(assinaturas.frequencia, 'apos-atualizacao')));
  return found.map((r) => r.painelId);
}

/**
 * Claims up to `limit` deliveries for `instanceId` until `leaseUntil`: those waiting and available at `now`, and those
 * whose instance's lease lapsed (it died). Each claim counts an attempt.
 *
 * Owners take turns (docs/SECURITY.md, fair use): each available delivery's turn is its place among its owner's
 * available ones plus how many of that owner's are under way on any instance, and the lowest turns go first, the
 * longest waiting first among equals. One person's hundred 'Enviar agora' thus never hold back another's schedule.
 */
export async function claimDeliveries(
  db: Db,
  { now, limit, leaseUntil, instanceId }: { now: Date; limit: number; leaseUntil: Date; instanceId: string },
): Promise<DeliveryClaim[]> {
  const at = now.toISOString();
  // Rows another instance is claiming are skipped (SKIP LOCKED), so a few more candidates than asked are ranked. The
  // ranking reads a snapshot: the outer query repeats the conditions, which PostgreSQL checks again on a row's newest
  // version once it holds its lock, so that a row claimed by another instance in between is not claimed twice.
  const available = sql`
    select e.id from envios_assinatura e
    join (
      select c.id, c.disponivel_em,
             row_number() over (partition by s.usuario_id order by c.disponivel_em, c.id) + coalesce(r.n, 0) as turno
      from envios_assinatura c
      join assinaturas s on s.id = c.assinatura_id
      left join (
        select s2.usuario_id, count(*) as n from envios_assinatura u
        join assinaturas s2 on s2.id = u.assinatura_id
        where u.estado = 'executando' and u.ocupado_ate >= ${at}::timestamptz
        group by s2.usuario_id
      ) r on r.usuario_id = s.usuario_id
      where (c.estado = 'pendente' and c.disponivel_em <= ${at}::timestamptz)
         or (c.estado = 'executando' and c.ocupado_ate < ${at}::timestamptz)
      order by turno, c.disponivel_em, c.id
      limit ${limit * 4}
    ) candidatos on candidatos.id = e.id
    -- Again on the row locked: one another instance claimed meanwhile fails it when it is read again after its lock.
    where (e.estado = 'pendente' and e.disponivel_em <= ${at}::timestamptz)
       or (e.estado = 'executando' and e.ocupado_ate < ${at}::timestamptz)
    order by candidatos.turno, candidatos.disponivel_em, candidatos.id
    limit ${limit}
    for update of e skip locked`;
  return db
    .update(enviosAssinatura)
    .set({
      estado: 'executando',
      tentativas: sql`${enviosAssinatura.tentativas} + 1`,
      ocupadoAte: leaseUntil,
      ocupadoPor: instanceId,
    })
    .where(sql`${enviosAssinatura.id} in (${available})`)
    .returning(claimColumns)
    .then((claimed) => claimed.map((c) => ({ ...c, ocupadoAte: c.ocupadoAte ?? leaseUntil })));
}

/** The claim held longer; false when this instance no longer holds it (its lease lapsed and another took it). */
export async function renewClaim(db: Db, envioId: string, instanceId: string, leaseUntil: Date): Promise<boolean> {
  const renewed = await db
    .update(enviosAssinatura)
    .set({ ocupadoAte: leaseUntil })
    .where(heldBy(envioId, instanceId))
    .returning({ id: enviosAssinatura.id });
  return renewed.length > 0;
}

const heldBy = (envioId: string, instanceId: string) =>
  and(
    eq(enviosAssinatura.id, envioId),
    eq(enviosAssinatura.estado, 'executando'),
    eq(enviosAssinatura.ocupadoPor, instanceId),
  );

/** The subscription as it is now, with its saved view (the owner's, of its panel); null when it was deleted. */
export async function subscriptionToDeliver(db: Db, assinaturaId: string): Promise<SubscriptionToDeliver | null> {
  const [row] = await db
    .select({
      id: assinaturas.id,
      painelId: assinaturas.painelId,
      usuarioId: assinaturas.usuarioId,
      formato: assinaturas.formato,
      ...scheduleColumns,
      pagina: assinaturas.pagina,
      comDestinatarios: assinaturas.comDestinatarios,
      ativa: assinaturas.ativa,
      visaoNome: visoesSalvas.nome,
      visaoEstado: visoesSalvas.estado,
      visaoPagina: visoesSalvas.pagina,
    })
    .from(assinaturas)
    .leftJoin(
      visoesSalvas,
      and(eq(visoesSalvas.id, assinaturas.visaoId), eq(visoesSalvas.painelId, assinaturas.painelId)),
    )
    .where(eq(assinaturas.id, assinaturaId));
  if (!row) return null;
  const { visaoNome, visaoEstado, visaoPagina, ...subscription } = row;
  return {
    ...subscription,
    visao:
      visaoNome !== null && visaoEstado !== null ? { nome: visaoNome, estado: visaoEstado, pagina: visaoPagina } : null,
  };
}

/** The people and directory groups an administrator named as a subscription's recipients. */
export async function namedRecipients(db: Db, assinaturaId: string): Promise<{ usuarios: string[]; grupos: string[] }> {
  const [people, groups] = await Promise.all([
    db
      .select({ id: assinaturaUsuarios.usuarioId })
      .from(assinaturaUsuarios)
      .where(eq(assinaturaUsuarios.assinaturaId, assinaturaId)),
    db
      .select({ id: assinaturaGrupos.grupoId })
      .from(assinaturaGrupos)
      .where(eq(assinaturaGrupos.assinaturaId, assinaturaId)),
  ]);
  return { usuarios: people.map((p) => p.id), grupos: groups.map((g) => g.id) };
}

/** Who already has their part of this delivery recorded (sent, or left out), by person. */
export async function recordedRecipients(db: Db, envioId: string): Promise<Map<string, RecipientState>> {
  const found = await db
    .select({ usuarioId: envioDestinatarios.usuarioId, estado: envioDestinatarios.estado })
    .from(envioDestinatarios)
    .where(eq(envioDestinatarios.envioId, envioId));
  return new Map(found.map((r) => [r.usuarioId, r.estado]));
}

/**
 * A recipient's part, in one autocommitted statement: for 'enviado', the instant after the mail server accepted the
 * message. A part already recorded (by an instance that took the delivery before) stays as it was.
 */
export async function recordRecipient(
  db: Db,
  part: {
    envioId: string;
    usuarioId: string;
    estado: RecipientState;
    identidade?: string | null;
    idMensagem?: string | null;
  },
): Promise<void> {
  await db
    .insert(envioDestinatarios)
    .values({ identidade: null, idMensagem: null, ...part })
    .onConflictDoNothing();
}

/**
 * A file too large to attach, stored once per export (the delivery and the identity it was rendered with). A delivery
 * taken again after a crash reuses the file it stored.
 */
export async function storeFile(
  db: Db,
  file: { envioId: string; identidade: string; nome: string; tipo: string; conteudo: Buffer; expiraEm: Date },
): Promise<{ id: string; expiraEm: Date }> {
  const columns = { id: arquivosAssinatura.id, expiraEm: arquivosAssinatura.expiraEm };
  const [inserted] = await db
    .insert(arquivosAssinatura)
    .values({ ...file, tamanho: file.conteudo.length })
    .onConflictDoNothing()
    .returning(columns);
  return (
    inserted ??
    (
      await db
        .select(columns)
        .from(arquivosAssinatura)
        .where(and(eq(arquivosAssinatura.envioId, file.envioId), eq(arquivosAssinatura.identidade, file.identidade)))
    )[0]!
  );
}

/** A stored file linked to a recipient, who may download it until it expires. */
export async function linkFileRecipient(db: Db, arquivoId: string, usuarioId: string): Promise<void> {
  await db.insert(arquivoDestinatarios).values({ arquivoId, usuarioId }).onConflictDoNothing();
}

/** The bytes a delivery stored for download (its audit record counts them). */
export async function storedBytes(db: Db, envioId: string): Promise<number> {
  const [found] = await db
    .select({ bytes: sql<number>`coalesce(sum(${arquivosAssinatura.tamanho}), 0)::bigint` })
    .from(arquivosAssinatura)
    .where(eq(arquivosAssinatura.envioId, envioId));
  return Number(found?.bytes ?? 0);
}

/**
 * The delivery ended: 'enviado' (its subscription's last delivery now, its last failure cleared) or 'falhou' (the
 * reason on the subscription when `falhaAssinatura` is given). Nothing when this instance no longer holds it.
 */
export async function finishDelivery(
  db: Db,
  claim: { id: string; assinaturaId: string },
  instanceId: string,
  outcome: { estado: 'enviado' } | { estado: 'falhou'; erro: string; falhaAssinatura: string | null },
  now: Date,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const finished = await tx
      .update(enviosAssinatura)
      .set({
        estado: outcome.estado,
        erro: outcome.estado === 'falhou' ? outcome.erro : null,
        concluidoEm: now,
        ocupadoAte: null,
        ocupadoPor: null,
      })
      .where(heldBy(claim.id, instanceId))
      .returning({ id: enviosAssinatura.id });
    if (finished.length === 0) return false;
    if (outcome.estado === 'enviado') {
      await tx
        .update(assinaturas)
        .set({ ultimoEnvio: now, ultimaFalha: null, ultimaFalhaEm: null })
        .where(eq(assinaturas.id, claim.assinaturaId));
    } else if (outcome.falhaAssinatura !== null) {
      await tx
        .update(assinaturas)
        .set({ ultimaFalha: outcome.falhaAssinatura, ultimaFalhaEm: now })
        .where(eq(assinaturas.id, claim.assinaturaId));
    }
    return true;
  });
}

/** The attempt failed and another is left: back in the queue, available at `at`. */
export async function retryDelivery(
  db: Db,
  claim: { id: string },
  instanceId: string,
  at: Date,
  erro: string,
): Promise<boolean> {
  const released = await db
    .update(enviosAssinatura)
    .set({ estado: 'pendente', disponivelEm: at, erro, ocupadoAte: null, ocupadoPor: null })
    .where(heldBy(claim.id, instanceId))
    .returning({ id: enviosAssinatura.id });
  return released.length > 0;
}

/** This instance is stopping: the delivery goes back to the queue at once, the attempt it began not counted. */
export async function releaseDelivery(db: Db, claim: { id: string }, instanceId: string, now: Date): Promise<void> {
  await db
    .update(enviosAssinatura)
    .set({
      estado: 'pendente',
      disponivelEm: now,
      tentativas: sql`${enviosAssinatura.tentativas} - 1`,
      ocupadoAte: null,
      ocupadoPor: null,
    })
    .where(heldBy(claim.id, instanceId));
}

/** The hourly purge: files past their expiry go. */
export async function purgeFilesExpiredBy(db: Db, now: Date): Promise<void> {
  await db.delete(arquivosAssinatura).where(lte(arquivosAssinatura.expiraEm, now));
}
