import type { Db } from '../../db/client.ts';
import { insertPastAudit, type AuditRow } from './audit.repository.ts';
import { auditRow, type AuditActor, type AuditChange } from './audit-record.ts';

/** A record of the past: who, from where, when, and what changed, kept as recordAudit keeps it. */
export type PastAuditRecord = AuditActor & AuditChange & { momento: Date };

/**
 * Records of the past (the demo's history, demo/demo-history.ts), oldest first, so that their ids follow their
 * moments as live records' do. Answers the sign-ins among them, for the people's last sign-ins (auth/sign-ins.ts).
 */
export async function seedAuditHistory(
  db: Db,
  records: PastAuditRecord[],
): Promise<{ usuarioId: string; momento: Date }[]> {
  const dated = records
    .map((r) => ({ row: auditRow(r, r), momento: r.momento }))
    .filter((r): r is { row: AuditRow; momento: Date } => r.row !== null)
    .sort((a, b) => a.momento.getTime() - b.momento.getTime());
  await insertPastAudit(
    db,
    dated.map(({ row, momento }) => ({ ...row, momento })),
  );
  return dated.flatMap(({ row, momento }) =>
    row.objeto === 'sessao' && row.acao === 'login' && row.usuarioId ? [{ usuarioId: row.usuarioId, momento }] : [],
  );
}
