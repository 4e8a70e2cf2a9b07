import diff from 'microdiff';
import type { AcaoAuditoria, Mudanca, ObjetoAuditoria } from '@paineis/contract/audit';
import type { AuditRow } from './audit.repository.ts';

/**
 * What an audit record holds, and the compact diff it keeps of a change: apart from audit.ts, which knows requests, so
 * that the demo's history (audit-history.ts) is made the same way without Fastify.
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

/** The record of a change, or null for a change that changed nothing. */
export function auditRow(actor: AuditActor, change: AuditChange): AuditRow | null {
  const mudancas = change.mudancas ?? changesBetween(change.antes, change.depois);
  if (change.acao === 'alteracao' && mudancas.length === 0) return null;
  return {
    usuarioId: actor.usuarioId,
    usuario: actor.usuario,
    endereco: actor.endereco,
    objeto: change.objeto,
    acao: change.acao,
    objetoId: change.objetoId == null ? null : String(change.objetoId),
    objetoNome: change.objetoNome ?? null,
    mudancas,
  };
}

/** How a person signed in, as the audit trail names it. */
export type SignInMethod = 'Microsoft' | 'Conta local';
