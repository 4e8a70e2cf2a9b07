import type { EventoAlerta } from '@paineis/contract/alerts';
import type { OutgoingMail } from '../../integrations/mail/mail-transport.ts';
import { escapeHtml } from './delivery-message.ts';

/**
 * The message of an alert's notice (docs/requirements.md#alerts): what happened in the subject, Power BI's message or
 * the health check's in the body, and a link to each panel affected.
 */

/** At most this many panels are named in a subject; the body lists them all. */
const PANELS_IN_SUBJECT = 3;

export interface AlertMessageInput {
  incidenteId: string;
  evento: EventoAlerta;
  aviso: 'abertura' | 'fechamento';
  /** The portal's address people use, without a trailing slash. */
  base: string;
  recipient: { id: string; nome: string; email: string };
  paineis: { id: number; nome: string }[];
  mensagem: string | null;
}

/** The panels in words: 'Vendas, Metas e mais 2'. */
export function panelNames(paineis: { nome: string }[]): string {
  const names = paineis.map((p) => p.nome);
  if (names.length <= PANELS_IN_SUBJECT) return names.join(', ');
  return `${names.slice(0, PANELS_IN_SUBJECT).join(', ')} e mais ${names.length - PANELS_IN_SUBJECT}`;
}

export function alertSubject(evento: EventoAlerta, aviso: 'abertura' | 'fechamento', paineis: { nome: string }[]) {
  const names = panelNames(paineis);
  if (evento === 'falha-atualizacao') {
    return aviso === 'abertura'
      ? `Falha na atualização dos dados: ${names}`
      : `Atualização voltou a funcionar: ${names}`;
  }
  return aviso === 'abertura' ? `Painel indisponível: ${names}` : `Painel disponível novamente: ${names}`;
}

function lead(input: AlertMessageInput): { text: string; detail: string | null } {
  const several = input.paineis.length > 1;
  if (input.evento === 'falha-atualizacao') {
    return input.aviso === 'abertura'
      ? {
          text: several
            ? 'A última atualização dos dados destes painéis falhou no Power BI.'
            : 'A última atualização dos dados deste painel falhou no Power BI.',
          detail: input.mensagem && `Mensagem do Power BI: ${input.mensagem}`,
        }
      : {
          text: 'Os dados voltaram a ser atualizados: a última atualização no Power BI foi concluída.',
          detail: null,
        };
  }
  return input.aviso === 'abertura'
    ? {
        text: 'A verificação do portal não conseguiu abrir o relatório deste painel no Power BI.',
        detail: input.mensagem,
      }
    : { text: 'O relatório deste painel voltou a ser encontrado no Power BI: o painel pode ser aberto.', detail: null };
}

/** The message to one recipient; `deliveryKey` tells it apart from any other notice's or person's. */
export function alertMessage(input: AlertMessageInput): OutgoingMail {
  const { text: leadText, detail } = lead(input);
  const panelUrl = (id: number) => `${input.base}/visualizar/${id}`;
  const settingsUrl = `${input.base}/assinaturas/todas`;
  const text = [
    `Olá, ${input.recipient.nome}.`,
    '',
    leadText,
    ...(detail ? ['', detail] : []),
    '',
    ...input.paineis.map((p) => `${p.nome}: ${panelUrl(p.id)}`),
    '',
    `Você recebe este alerta porque um administrador o incluiu nos alertas do portal: ${settingsUrl}`,
  ].join('\n');
  const link = (url: string, label: string) => `<a href="${escapeHtml(url)}">${escapeHtml(label)}</a>`;
  const html = [
    '<!DOCTYPE html><html lang="pt-BR"><head><meta charset="utf-8"></head><body>',
    `<p>Olá, ${escapeHtml(input.recipient.nome)}.</p>`,
    `<p>${escapeHtml(leadText)}</p>`,
    ...(detail ? [`<p><strong>${escapeHtml(detail)}</strong></p>`] : []),
    `<ul>${input.paineis.map((p) => `<li>${link(panelUrl(p.id), p.nome)}</li>`).join('')}</ul>`,
    `<p>Você recebe este alerta porque um administrador o incluiu nos ${link(settingsUrl, 'alertas do portal')}.</p>`,
    '</body></html>',
  ].join('\n');
  return {
    to: { address: input.recipient.email, name: input.recipient.nome },
    subject: alertSubject(input.evento, input.aviso, input.paineis),
    html,
    text,
    deliveryKey: `alerta-${input.incidenteId}-${input.aviso}/${input.recipient.id}`,
  };
}
