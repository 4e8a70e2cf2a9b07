import type { FastifyRequest } from 'fastify';
import diff from 'microdiff';
import type { AcaoAuditoria, Mudanca, ObjetoAuditoria } from '@paineis/contract/audit';
import type { Db } from '../../db/client.ts';
import { auditPage, insertAudit, markSignedIn, purgeAuditBefore, type AuditFilter } from './audit.repository.ts';

/**
 * The audit trail (docs/requirements.md#audit): every administrative change, written in the transaction that makes
 * it, so that one is never kept without the other; and sign-ins, sign-outs, refused sign-ins and throttling.
 */

/** Who made a change, and from where. */
export interface AuditActor {
  usuarioId: string | null;
  /** The person's e-mail (the name typed, for a refused sign-in). */
  usuario: string | null;
  endereco: string | null;
}

/** Changes the portal makes itself (demo data, test fixtures): nobody, from nowhere. */
export const SYSTEM_ACTOR: AuditActor = { usuarioId: null, usuario: null, endereco: null };

/** The signed-in person behind a request, and its address (the proxy's client address with TRUST_PROXY). */
export const actorOf = (request: FastifyRequest): AuditActor => ({
  usuarioId: request.user?.id ?? null,
  usuario: request.user?.email ?? null,
  endereco: request.ip,
});

export interface AuditChange {
  objeto: ObjetoAuditoria;
  acao: AcaoAuditoria;
  objetoId?: string | number | null;
  objetoNome?: string | null;
  /** The object before and after: what changed between the two is kept, not the whole of either. */
  antes?: object | null;
  depois?: object | null;
  /** Changes stated outright (a sign-in's method, a refusal's reason), when there is no before and after. */
  mudancas?: Mudanca[];
}

/**
 * The compact diff: one entry per leaf that changed, by its dotted path. Objects keyed by id (links by person, RLS
 * roles by name) give one entry per person or role added, removed or changed.
 */
export function changesBetween(antes: object | null | undefined, depois: object | null | undefined): Mudanca[] {
  return diff((antes ?? {}) as Record<string, unknown>, (depois ?? {}) as Record<string, unknown>).map((d) => ({
    campo: d.path.join('.'),
    ...(d.type === 'CREATE' ? {} : { antes: d.oldValue as unknown }),
    ...(d.type === 'REMOVE' ? {} : { depois: d.value as unknown }),
  }));
}

/** Writes one record; pass the transaction that makes the change. A change that changed nothing is not recorded. */
export async function recordAudit(db: Db, actor: AuditActor, change: AuditChange): Promise<void> {
  const mudancas = change.mudancas ?? changesBetween(change.antes, change.depois);
  if (change.acao === 'alteracao' && mudancas.length === 0) return;
  await insertAudit(db, {
    ...actor,
    objeto: change.objeto,
    acao: change.acao,
    objetoId: change.objetoId == null ? null : String(change.objetoId),
    objetoNome: change.objetoNome ?? null,
    mudancas,
  });
}

/** How a person signed in, as the audit trail names it. */
export type SignInMethod = 'Microsoft' | 'Conta local';

/** A successful sign-in: the audit record, and the person's last sign-in ('/uso' lists who has none lately). */
export async function recordSignIn(db: Db, actor: AuditActor & { usuarioId: string }, metodo: SignInMethod) {
  await markSignedIn(db, actor.usuarioId, new Date());
  await recordAudit(db, actor, {
    objeto: 'sessao',
    acao: 'login',
    objetoId: actor.usuarioId,
    mudancas: [{ campo: 'metodo', depois: metodo }],
  });
}

/** A sign-in refused (wrong password, Microsoft's answer refused) or throttled (429), with its reason. */
export async function recordRefusedSignIn(
  db: Db,
  actor: AuditActor,
  metodo: SignInMethod,
  acao: 'login_recusado' | 'limitado',
  motivo: string,
) {
  await recordAudit(db, actor, {
    objeto: 'sessao',
    acao,
    mudancas: [
      { campo: 'metodo', depois: metodo },
      { campo: 'motivo', depois: motivo },
    ],
  });
}

export const listAudit = (db: Db, filter: AuditFilter) => auditPage(db, filter);

export const purgeAudit = (db: Db, retentionDays: number) =>
  purgeAuditBefore(db, new Date(Date.now() - retentionDays * 86_400_000));
