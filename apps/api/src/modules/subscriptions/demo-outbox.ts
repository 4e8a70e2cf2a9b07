import { create as contentDisposition } from 'content-disposition';
import type { CaixaDeSaida } from '@paineis/contract/subscriptions';
import { notFound } from '../../lib/domain-failure.ts';

/** The Graph stand-in's record of what sendMail received (demo mode), as the outbox reads it. */
export interface DemoOutbox {
  messages(): readonly DemoOutboxMessage[];
}
export interface DemoOutboxMessage {
  id: string;
  from: string;
  to: string[];
  subject: string;
  html: string;
  receivedAt: string;
  attachments: { name: string; contentType: string; content: Buffer }[];
}

/** The outbox's answers when the portal is not in demo mode (no stand-in received anything). */
export const SO_DEMONSTRACAO = 'Disponível só no modo demonstração.';
export const ANEXO_NAO_ENCONTRADO = 'Anexo não encontrado.';

function outboxOrFail(outbox: DemoOutbox | null): DemoOutbox {
  if (!outbox) throw notFound(SO_DEMONSTRACAO);
  return outbox;
}

/** The messages the Graph stand-in received, newest first, their attachments by name, type and size. */
export function demoOutboxMessages(outbox: DemoOutbox | null): CaixaDeSaida {
  const messages = [...outboxOrFail(outbox).messages()].reverse();
  // Arrival order breaks ties: the stand-in keeps them oldest first.
  messages.sort((a, b) => b.receivedAt.localeCompare(a.receivedAt));
  return {
    mensagens: messages.map((m) => ({
      id: m.id,
      de: m.from,
      para: [...m.to],
      assunto: m.subject,
      corpo: m.html,
      enviadaEm: m.receivedAt,
      anexos: m.attachments.map((a) => ({ nome: a.name, tipo: a.contentType, tamanho: a.content.length })),
    })),
  };
}

/** One attachment's bytes, to download (never shown inline: its type is what the message said). */
export function demoOutboxAttachment(
  outbox: DemoOutbox | null,
  id: string,
  indice: number,
): { body: Buffer; headers: Record<string, string> } {
  const attachment = outboxOrFail(outbox)
    .messages()
    .find((m) => m.id === id)?.attachments[indice];
  if (!attachment) throw notFound(ANEXO_NAO_ENCONTRADO);
  const fallback = attachment.name
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(/[^\x20-\x7e]/g, '_');
  return {
    body: attachment.content,
    headers: {
      'content-type': attachment.contentType,
      'content-disposition': contentDisposition(attachment.name, { fallback }),
      'cache-control': 'private, no-store',
    },
  };
}
