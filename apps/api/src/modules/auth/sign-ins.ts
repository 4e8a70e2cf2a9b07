import type { Db } from '../../db/client.ts';
import { recordSignIn, type AuditActor, type SignInMethod } from '../audit/audit.ts';
import { insertLastSignIns, markSignedIn } from './sign-ins.repository.ts';

/**
 * A successful sign-in, Microsoft or local: the person's last sign-in (`ultimos_logins`, which '/uso' reads for who
 * has not signed in lately) and the audit record.
 */
export async function signedIn(db: Db, actor: AuditActor & { usuarioId: string }, metodo: SignInMethod) {
  await markSignedIn(db, actor.usuarioId, new Date());
  await recordSignIn(db, actor, metodo);
}

/** Sign-ins of the past (the demo's history), each person's latest kept. */
export const seedLastSignIns = (db: Db, signIns: { usuarioId: string; momento: Date }[]) =>
  insertLastSignIns(db, signIns);
