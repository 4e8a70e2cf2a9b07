import type { MailSettings } from '../../config/env.ts';
import type { GraphClient } from '../microsoft-graph/graph-client.ts';
import { GraphMailTransport } from './graph-mail-transport.ts';
import type { MailTransport } from './mail-transport.ts';
import { SmtpTransport } from './smtp-transport.ts';

/** The transport the configuration names, or null when none is configured (nothing is sent). */
export function createMailTransport(
  settings: MailSettings | null,
  deps: { graph: GraphClient | null },
): MailTransport | null {
  if (!settings) return null;
  if (settings.kind === 'smtp') return new SmtpTransport(settings.url, settings.from, settings.maxAttachmentBytes);
  // env.ts sets MAIL_SENDER's transport only with the Microsoft configuration that gives app.ts its Graph client.
  if (!deps.graph) throw new Error('MAIL_SENDER: o envio pelo Microsoft Graph exige a configuração Microsoft.');
  return new GraphMailTransport(deps.graph, settings.sender, settings.maxAttachmentBytes, settings.limits);
}
