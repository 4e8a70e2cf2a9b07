import type { OutgoingMail } from '../src/integrations/mail/mail-transport.ts';

/** The bytes of the report both mail transports' tests attach: a PDF in name only. */
export const REPORT_PDF = Buffer.from('%PDF-1.7\n% relatório da Ana\n%%EOF\n');

/** One subscription e-mail to Ana with the report attached, as the delivery engine would hand it to a transport. */
export const outgoingMail = (extra: Partial<OutgoingMail> = {}): OutgoingMail => ({
  to: { address: 'ana@empresa.com.br', name: 'Ana Souza' },
  subject: 'Vendas — 27/11/2026',
  html: '<p>Olá, Ana. Segue o painel <b>Vendas</b>.</p>',
  text: 'Olá, Ana. Segue o painel Vendas.',
  attachment: { filename: 'Vendas.pdf', contentType: 'application/pdf', content: REPORT_PDF },
  deliveryKey: 'envio-1/usuario-1',
  ...extra,
});
