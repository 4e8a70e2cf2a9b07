import type { StandIns } from '@paineis/microsoft-stand-ins/types';
import type { DemoOutbox } from '../modules/subscriptions/demo-outbox.ts';

/** The demo outbox over the Graph stand-in's record of sendMail (server.ts in demo mode, and the outbox's tests). */
export function demoOutboxOf(graph: Pick<StandIns['graph'], 'sentMail'>): DemoOutbox {
  return {
    messages: () =>
      graph.sentMail().map((m) => ({
        id: m.id,
        from: m.from,
        to: [...m.to, ...m.cc, ...m.bcc].map((r) => (r.name ? `${r.name} <${r.address}>` : r.address)),
        subject: m.subject,
        html: m.body.content,
        receivedAt: m.receivedAt,
        attachments: m.attachments,
      })),
  };
}
