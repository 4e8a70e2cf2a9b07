import { and, asc, desc, eq, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import { ALERTA_MESSAGES, EVENTOS_ALERTA, type EventoAlerta } from '@paineis/contract/alerts';
import type { Db } from '../../db/client.ts';
import { alertaGrupos, alertaIncidentes, alertas, alertaUsuarios, grupos, usuarios } from '../../db/schema.ts';
import { byNome } from '../../lib/collation.ts';
import { invalid } from '../../lib/domain-failure.ts';
import { recordAudit, SYSTEM_ACTOR, type AuditActor, type AuditChange } from '../audit/audit.ts';

/**
 * The alerts' settings and incidents (docs/requirements.md#alerts). Reads the people and groups named, by name, as
 * decision 008 lists for the subscriptions module.
 */

const SETTINGS_ID = 1;

export interface AlertSettings {
  eventos: EventoAlerta[];
  usuarios: { id: string; displayName: string; email: string }[];
  grupos: { id: string; displayName: string }[];
}

const onlyEvents = (values: readonly string[]): EventoAlerta[] => EVENTOS_ALERTA.filter((e) => values.includes(e));

/** The events on and the recipients named, by name. */
export async function alertSettings(db: Db): Promise<AlertSettings> {
  const [row] = await db.select({ eventos: alertas.eventos }).from(alertas).where(eq(alertas.id, SETTINGS_ID));
  const people = await db
    .select({ id: usuarios.id, displayName: usuarios.displayName, email: usuarios.email })
    .from(alertaUsuarios)
    .innerJoin(usuarios, eq(usuarios.id, alertaUsuarios.usuarioId));
  const groups = await db
    .select({ id: grupos.id, displayName: grupos.nome })
    .from(alertaGrupos)
    .innerJoin(grupos, eq(grupos.id, alertaGrupos.grupoId));
  return {
    eventos: onlyEvents(row?.eventos ?? []),
    usuarios: people.sort((a, b) => byNome({ nome: a.displayName }, { nome: b.displayName }) || (a.id < b.id ? -1 : 1)),
    grupos: groups.sort((a, b) => byNome({ nome: a.displayName }, { nome: b.displayName }) || (a.id < b.id ? -1 : 1)),
  };
}

/**
 * Replaces the settings, with their audit record, in one transaction; 400 when a person or a group named does not
 * exist. The row is locked first, so that two administrators saving at once are recorded one after the other.
 */
export async function replaceAlertSettings(
  db: Db,
  input: { eventos: EventoAlerta[]; usuarios: string[]; grupos: string[] },
  /** Null for the demo's seeded settings, whose audit trail is a history of its own. */
  actor: AuditActor | null,
): Promise<void> {
  const people = [...new Set(input.usuarios)];
  const groups = [...new Set(input.grupos)];
  await db.transaction(async (tx) => {
    await tx.insert(alertas).values({ id: SETTINGS_ID }).onConflictDoNothing();
    await tx.execute(sql`select id from alertas where id = ${SETTINGS_ID} for update`);
    const [foundPeople, foundGroups] = await Promise.all([
      people.length === 0 ? [] : tx.select({ id: usuarios.id }).from(usuarios).where(inArray(usuarios.id, people)),
      groups.length === 0 ? [] : tx.select({ id: grupos.id }).from(grupos).where(inArray(grupos.id, groups)),
    ]);
    if (foundPeople.length !== people.length || foundGroups.length !== groups.length) {
      throw invalid(ALERTA_MESSAGES.destinatarioDesconhecido);
    }
    const antes = await alertSettings(tx);
    await tx
      .update(alertas)
      .set({ eventos: onlyEvents(input.eventos), atualizadoEm: new Date() })
      .where(eq(alertas.id, SETTINGS_ID));
    await tx.delete(alertaUsuarios);
    await tx.delete(alertaGrupos);
    if (people.length > 0) await tx.insert(alertaUsuarios).values(people.map((usuarioId) => ({ usuarioId })));
    if (groups.length > 0) await tx.insert(alertaGrupos).values(groups.map((grupoId) => ({ grupoId })));
    const depois = await alertSettings(tx);
    if (actor) {
      await recordAudit(tx, actor, {
        objeto: 'alerta',
        acao: 'alteracao',
        objetoNome: 'Alertas',
        antes: forAudit(antes),
        depois: forAudit(depois),
      });
    }
  });
}

/** The settings as the audit keeps them: events by name, people by e-mail, groups by name. */
const forAudit = (s: AlertSettings) => ({
  eventos: Object.fromEntries(s.eventos.map((e) => [e, true])),
  usuarios: Object.fromEntries(s.usuarios.map((p) => [p.id, p.email])),
  grupos: Object.fromEntries(s.grupos.map((g) => [g.id, g.displayName])),
});

/** The events on, and the ids named: whom a notice goes to is worked out from them when it is sent. */
export async function alertRecipientIds(
  db: Db,
): Promise<{ eventos: EventoAlerta[]; usuarios: string[]; grupos: string[] }> {
  const [row] = await db.select({ eventos: alertas.eventos }).from(alertas).where(eq(alertas.id, SETTINGS_ID));
  const [people, groups] = await Promise.all([
    db.select({ id: alertaUsuarios.usuarioId }).from(alertaUsuarios).orderBy(alertaUsuarios.usuarioId),
    db.select({ id: alertaGrupos.grupoId }).from(alertaGrupos).orderBy(alertaGrupos.grupoId),
  ]);
  return {
    eventos: onlyEvents(row?.eventos ?? []),
    usuarios: people.map((p) => p.id),
    grupos: groups.map((g) => g.id),
  };
}

export type Incident = typeof alertaIncidentes.$inferSelect;
export type NoticeState = NonNullable<Incident['avisoFechamento']>;

/** The incidents of this event open now. */
export const openIncidents = (db: Db, evento: EventoAlerta): Promise<Incident[]> =>
  db
    .select()
    .from(alertaIncidentes)
    .where(and(eq(alertaIncidentes.evento, evento), isNull(alertaIncidentes.fechadoEm)));

/** Opens an incident, unless one of this event and key is open already (another reconciler opened it). */
export async function openIncident(
  db: Db,
  incident: {
    evento: EventoAlerta;
    chave: string;
    paineis: { id: number; nome: string }[];
    mensagem: string | null;
    abertoEm: Date;
    avisoAbertura: 'pendente' | 'dispensado';
  },
): Promise<void> {
  await db.insert(alertaIncidentes).values(incident).onConflictDoNothing();
}

/**
 * Closes an incident still open. With `notify`, its closing notice is to be sent when its opening one was (or still
 * is to be); otherwise (closed silently, or the event is off now) it is not.
 */
export async function closeIncident(db: Db, id: string, at: Date, notify: boolean): Promise<void> {
  await db
    .update(alertaIncidentes)
    .set({
      fechadoEm: at,
      avisoFechamento: notify
        ? sql`case when ${alertaIncidentes.avisoAbertura} = 'dispensado' then 'dispensado' else 'pendente' end`
        : 'dispensado',
    })
    .where(and(eq(alertaIncidentes.id, id), isNull(alertaIncidentes.fechadoEm)));
}

/**
 * Claims, for `leaseUntil`, the incidents of this event with a notice to send that no other reconciler holds, oldest
 * first: row locks skip those another is claiming at the same moment.
 */
export async function claimNotices(
  db: Db,
  { evento, now, leaseUntil, instance }: { evento: EventoAlerta; now: Date; leaseUntil: Date; instance: string },
): Promise<Incident[]> {
  const free = db
    .select({ id: alertaIncidentes.id })
    .from(alertaIncidentes)
    .where(
      and(
        eq(alertaIncidentes.evento, evento),
        or(eq(alertaIncidentes.avisoAbertura, 'pendente'), eq(alertaIncidentes.avisoFechamento, 'pendente')),
        or(isNull(alertaIncidentes.ocupadoAte), lte(alertaIncidentes.ocupadoAte, now)),
      ),
    )
    .orderBy(asc(alertaIncidentes.abertoEm))
    .limit(50)
    .for('update', { skipLocked: true });
  return db
    .update(alertaIncidentes)
    .set({ ocupadoPor: instance, ocupadoAte: leaseUntil })
    .where(inArray(alertaIncidentes.id, free))
    .returning();
}

/** This recipient's message of the notice under way was accepted; false when the claim is no longer this one's. */
export async function recordSentTo(db: Db, id: string, instance: string, usuarioId: string): Promise<boolean> {
  const updated = await db
    .update(alertaIncidentes)
    .set({ enviadosPara: sql`${alertaIncidentes.enviadosPara} || ${JSON.stringify([usuarioId])}::jsonb` })
    .where(and(eq(alertaIncidentes.id, id), eq(alertaIncidentes.ocupadoPor, instance)))
    .returning({ id: alertaIncidentes.id });
  return updated.length > 0;
}

/**
 * Ends a notice as sent or not to be sent, while the claim is this one's (false otherwise), with its audit record in
 * the same transaction; an opening notice not sent takes the closing one with it. The claim stays, for the closing
 * notice next.
 */
export async function finishNotice(
  db: Db,
  id: string,
  instance: string,
  aviso: 'abertura' | 'fechamento',
  estado: 'enviado' | 'dispensado',
  at: Date,
  audit?: AuditChange,
): Promise<boolean> {
  const set =
    aviso === 'abertura'
      ? {
          avisoAbertura: estado,
          avisoAberturaEm: estado === 'enviado' ? at : null,
          ...(estado === 'dispensado'
            ? {
                avisoFechamento: sql`case when ${alertaIncidentes.avisoFechamento} = 'pendente' then 'dispensado' else ${alertaIncidentes.avisoFechamento} end`,
              }
            : {}),
        }
      : { avisoFechamento: estado, avisoFechamentoEm: estado === 'enviado' ? at : null };
  return db.transaction(async (tx) => {
    const updated = await tx
      .update(alertaIncidentes)
      .set({ ...set, enviadosPara: sql`'[]'::jsonb` })
      .where(and(eq(alertaIncidentes.id, id), eq(alertaIncidentes.ocupadoPor, instance)))
      .returning({ id: alertaIncidentes.id });
    if (updated.length === 0) return false;
    if (audit) await recordAudit(tx, SYSTEM_ACTOR, audit);
    return true;
  });
}

/** Gives the claim back: what is left is sent at the next reconcile, by whichever reconciler claims it. */
export async function releaseNotices(db: Db, id: string, instance: string): Promise<void> {
  await db
    .update(alertaIncidentes)
    .set({ ocupadoPor: null, ocupadoAte: null })
    .where(and(eq(alertaIncidentes.id, id), eq(alertaIncidentes.ocupadoPor, instance)));
}

/** The incident as it is now (after a claim, to see its notices). */
export async function incidentNow(db: Db, id: string): Promise<Incident | undefined> {
  const [row] = await db.select().from(alertaIncidentes).where(eq(alertaIncidentes.id, id));
  return row;
}

/** Every incident open now, newest first, and the last `closed` closed. */
export async function listedIncidents(
  db: Db,
  closed: number,
): Promise<{ abertos: Incident[]; encerrados: Incident[] }> {
  const [abertos, encerrados] = await Promise.all([
    db
      .select()
      .from(alertaIncidentes)
      .where(isNull(alertaIncidentes.fechadoEm))
      .orderBy(desc(alertaIncidentes.abertoEm)),
    db
      .select()
      .from(alertaIncidentes)
      .where(isNotNull(alertaIncidentes.fechadoEm))
      .orderBy(desc(alertaIncidentes.fechadoEm))
      .limit(closed),
  ]);
  return { abertos, encerrados };
}
