import { DateTime } from 'luxon';
import { DIAS_SEMANA, type FormatoAssinatura } from '@paineis/contract/subscriptions';
import type { OutgoingMail } from '../../integrations/mail/mail-transport.ts';
import type { Schedule } from './schedule.ts';

/**
 * The message each recipient of a delivery gets (docs/requirements.md#subscriptions): the panel and the occurrence's
 * date in the subject, a short Portuguese body with links to the panel and to the person's subscriptions, and the file
 * attached, or a link to download it from the portal when it is too large for the transport.
 */

const FORMAT_NAMES: Record<FormatoAssinatura, string> = { PDF: 'PDF', PPTX: 'PowerPoint' };

/** The schedule in words, inside a sentence: 'toda segunda-feira às 07:00 (America/Sao_Paulo)'. */
export function scheduleInWords(schedule: Schedule): string {
  if (schedule.frequencia === 'apos-atualizacao') return 'após cada atualização dos dados';
  const at = `às ${schedule.hora} (${schedule.fusoHorario})`;
  if (schedule.frequencia === 'semanal' && schedule.diaSemana !== null) {
    // Sábado and domingo are masculine.
    const every = schedule.diaSemana >= 6 ? 'todo' : 'toda';
    return `${every} ${DIAS_SEMANA[schedule.diaSemana]} ${at}`;
  }
  if (schedule.frequencia === 'mensal' && schedule.diaMes !== null) return `todo dia ${schedule.diaMes} do mês ${at}`;
  return `todos os dias ${at}`;
}

/** Text safe inside HTML's text and attribute values. */
export const escapeHtml = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

export interface DeliveryMessageInput {
  envioId: string;
  /** The portal's address people use, without a trailing slash. */
  base: string;
  recipient: { id: string; nome: string; email: string };
  panel: { id: number; nomePainel: string };
  formato: FormatoAssinatura;
  schedule: Schedule;
  /** The occurrence delivered (the moment 'Enviar agora' was asked, for a manual one). */
  ocorrencia: Date;
  manual: boolean;
  /** The saved view exported, by name, when the subscription names one. */
  visao: string | null;
  /** The file attached, or (too large) the id of its copy in the portal and when that expires. */
  file:
    | { kind: 'attached'; filename: string; contentType: string; content: Buffer }
    | { kind: 'link'; arquivoId: string; expiraEm: Date };
}

/** The message for one recipient; `deliveryKey` tells it apart from any other delivery's or person's. */
export function deliveryMessage(input: DeliveryMessageInput): OutgoingMail {
  const { base, panel, schedule } = input;
  const local = (date: Date) => DateTime.fromJSDate(date, { zone: schedule.fusoHorario });
  const panelUrl = `${base}/visualizar/${panel.id}`;
  const subscriptionsUrl = `${base}/assinaturas`;
  const formato = FORMAT_NAMES[input.formato];
  const what = input.visao === null ? '' : ` (visão "${input.visao}")`;
  const afterRefresh = schedule.frequencia === 'apos-atualizacao' && !input.manual;
  // After a refresh the occurrence is the refresh's end: the data's moment, which the reader wants to know.
  const when = input.manual
    ? `Este envio foi pedido em "Enviar agora"; a assinatura é enviada ${scheduleInWords(schedule)}.`
    : afterRefresh
      ? `Os dados foram atualizados em ${local(input.ocorrencia).toFormat("dd/MM/yyyy 'às' HH:mm")} ` +
        `(${schedule.fusoHorario}); a assinatura é enviada ${scheduleInWords(schedule)}.`
      : `A assinatura é enviada ${scheduleInWords(schedule)}.`;
  const fileUrl = input.file.kind === 'link' ? `${base}/assinaturas/arquivos/${input.file.arquivoId}` : null;
  const expiry = input.file.kind === 'link' ? local(input.file.expiraEm).toFormat("dd/MM/yyyy 'às' HH:mm") : null;

  const text = [
    `Olá, ${input.recipient.nome}.`,
    '',
    `Segue o painel ${panel.nomePainel}${what} em ${formato}, da sua assinatura por e-mail. ${when}`,
    '',
    ...(fileUrl ? [`O arquivo é grande demais para ir anexo. Baixe-o no portal até ${expiry}: ${fileUrl}`, ''] : []),
    `Abrir o painel: ${panelUrl}`,
    `Gerenciar suas assinaturas: ${subscriptionsUrl}`,
  ].join('\n');

  const link = (url: string, label: string) => `<a href="${escapeHtml(url)}">${escapeHtml(label)}</a>`;
  const html = [
    '<!DOCTYPE html><html lang="pt-BR"><head><meta charset="utf-8"></head><body>',
    `<p>Olá, ${escapeHtml(input.recipient.nome)}.</p>`,
    `<p>Segue o painel <strong>${escapeHtml(panel.nomePainel)}</strong>${escapeHtml(what)} em ${formato}, da sua ` +
      `assinatura por e-mail. ${escapeHtml(when)}</p>`,
    ...(fileUrl
      ? [
          `<p>O arquivo é grande demais para ir anexo. ${link(fileUrl, 'Baixe-o no portal')} até ` +
            `${escapeHtml(expiry!)}.</p>`,
        ]
      : []),
    `<p>${link(panelUrl, 'Abrir o painel')} · ${link(subscriptionsUrl, 'Gerenciar suas assinaturas')}</p>`,
    '</body></html>',
  ].join('\n');

  return {
    to: { address: input.recipient.email, name: input.recipient.nome },
    subject: `${panel.nomePainel} — ${local(input.ocorrencia).toFormat(afterRefresh ? "dd/MM/yyyy 'às' HH:mm" : 'dd/MM/yyyy')}`,
    html,
    text,
    attachment:
      input.file.kind === 'attached'
        ? { filename: input.file.filename, contentType: input.file.contentType, content: input.file.content }
        : undefined,
    deliveryKey: `${input.envioId}/${input.recipient.id}`,
  };
}
