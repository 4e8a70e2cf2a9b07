import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.ts';
import { auditPage, insertAudit, purgeAuditBefore, type AuditFilter } from './audit.repository.ts';
import { auditRow, type AuditActor, type AuditChange, type SignInMethod } from './audit-record.ts';

/**
 * The audit trail (docs/requirements.md#audit): every administrative change, written in the transaction that makes
 * it, so that one is never kept without the other; and sign-ins, sign-outs, refused sign-ins and throttling.
 */

export { changesBetween, SYSTEM_ACTOR, type AuditActor, type AuditChange, type SignInMethod } from './audit-record.ts';

/**
 * The signed-in person behind a request, and its address (the proxy's client address with TRUST_PROXY). Typed by
 * what it reads, so that this module does not depend on the session plugin's declaration of `request.user`.
 */
export const actorOf = (request: {
  user?: { id: string; email: string } | null;
  ip: FastifyRequest['ip'];
}): AuditActor => ({
  usuarioId: request.user?.id ?? null,
  usuario: request.user?.email ?? null,
  endereco: request.ip,
});

/** Writes one record; pass the transaction that makes the change. A change that changed nothing is not recorded. */
export async function recordAudit(db: Db, actor: AuditActor, change: AuditChange): Promise<void> {
  const row = auditRow(actor, change);
  if (row) await insertAudit(db, row);
}

/** A successful sign-in's audit record (the person's last sign-in is auth's: auth/sign-ins.ts). */
export async function recordSignIn(db: Db, actor: AuditActor & { usuarioId: string }, metodo: SignInMethod) {
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
