import { beforeEach, describe, expect, it } from 'vitest';
import type { CaixaDeSaida } from '@paineis/contract/subscriptions';
import { useTestApp } from '../../../test/context.ts';
import { createAdmin, createUser } from '../../../test/fixtures.ts';
import { microsoftConfig, person, useStandIns } from '../../../test/microsoft.ts';
import { demoOutboxOf } from '../../demo/demo-outbox.ts';
import type { OutgoingMail } from '../../integrations/mail/mail-transport.ts';

/**
 * The demo outbox: messages sent through the real Graph transport to the Graph stand-in, read back by an
 * administrator through /demonstracao/caixa-de-saida, as demo mode wires it (server.ts).
 */

const PDF = Buffer.from('%PDF-1.7\n% relatório\n%%EOF\n');
const PPTX_TYPE = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';

const mail = (n: number, extra: Partial<OutgoingMail> = {}): OutgoingMail => ({
  to: { address: 'ana@empresa.com.br', name: 'Ana Souza' },
  subject: `Vendas — mensagem ${n}`,
  html: `<p>Mensagem ${n}</p>`,
  text: `Mensagem ${n}`,
  deliveryKey: `envio-${n}/ana`,
  ...extra,
});

describe('demo outbox', () => {
  const standIns = useStandIns({ people: [person('ana', 'Ana Souza'), person('paineis', 'Painéis')] });
  const ctx = useTestApp(() => ({
    config: microsoftConfig(standIns.current, { MAIL_SENDER: 'paineis@empresa.com.br' }),
    demoOutbox: demoOutboxOf(standIns.current.graph),
  }));
  const tokens = { admin: '', user: '' };

  beforeEach(async () => {
    standIns.current.graph.reset();
    tokens.admin = await ctx.tokenFor(await createAdmin(ctx.db));
    tokens.user = await ctx.tokenFor(await createUser(ctx.db));
  });

  it('lists what Graph received, newest first, with each attachment’s name, type and size', async () => {
    const mailer = ctx.app.mail!;
    expect(mailer.kind).toBe('graph');
    await mailer.send(
      mail(1, { attachment: { filename: 'Relatório de Vendas.pdf', contentType: 'application/pdf', content: PDF } }),
    );
    await mailer.send(mail(2, { to: { address: 'bia@empresa.com.br', name: 'Bia Lima' } }));

    const response = await ctx.request('GET', '/api/demonstracao/caixa-de-saida', { token: tokens.admin });
    expect(response.statusCode).toBe(200);
    const { mensagens } = response.json<CaixaDeSaida>();
    expect(mensagens.map((m) => m.assunto)).toEqual(['Vendas — mensagem 2', 'Vendas — mensagem 1']);
    expect(mensagens[1]).toEqual({
      id: expect.any(String),
      de: 'paineis@empresa.com.br',
      para: ['Ana Souza <ana@empresa.com.br>'],
      assunto: 'Vendas — mensagem 1',
      corpo: '<p>Mensagem 1</p>',
      enviadaEm: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      anexos: [{ nome: 'Relatório de Vendas.pdf', tipo: 'application/pdf', tamanho: PDF.length }],
    });
    expect(mensagens[0]).toMatchObject({ para: ['Bia Lima <bia@empresa.com.br>'], anexos: [] });
  });

  it('gives an attachment’s bytes with its type, as a download', async () => {
    const content = Buffer.from('PK\u0003\u0004 slides');
    await ctx.app.mail!.send(mail(3, { attachment: { filename: 'Vendas.pptx', contentType: PPTX_TYPE, content } }));
    const [message] = (
      await ctx.request('GET', '/api/demonstracao/caixa-de-saida', { token: tokens.admin })
    ).json<CaixaDeSaida>().mensagens;

    const file = await ctx.app.inject({
      url: `/api/demonstracao/caixa-de-saida/${message!.id}/anexos/0`,
      headers: { authorization: `Bearer ${tokens.admin}` },
    });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe(PPTX_TYPE);
    expect(file.headers['content-disposition']).toBe('attachment; filename=Vendas.pptx');
    expect(file.rawPayload.equals(content)).toBe(true);

    for (const url of [
      `/api/demonstracao/caixa-de-saida/${message!.id}/anexos/1`,
      '/api/demonstracao/caixa-de-saida/nenhuma/anexos/0',
    ]) {
      const missing = await ctx.request('GET', url, { token: tokens.admin });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ message: 'Anexo não encontrado.' });
    }
    const bad = await ctx.request('GET', `/api/demonstracao/caixa-de-saida/${message!.id}/anexos/x`, {
      token: tokens.admin,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ message: "Campo 'indice': O índice do anexo deve ser um número." });
  });

  it('is for administrators only', async () => {
    await ctx.app.mail!.send(
      mail(4, { attachment: { filename: 'a.pdf', contentType: 'application/pdf', content: PDF } }),
    );
    const id = standIns.current.graph.sentMail()[0]!.id;
    for (const url of ['/api/demonstracao/caixa-de-saida', `/api/demonstracao/caixa-de-saida/${id}/anexos/0`]) {
      const refused = await ctx.request('GET', url, { token: tokens.user });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ message: 'Acesso restrito a administradores.' });
      expect((await ctx.request('GET', url)).statusCode).toBe(401);
    }
  });
});

describe('demo outbox outside demo mode', () => {
  const ctx = useTestApp();

  it('answers 404: there is no outbox', async () => {
    const token = await ctx.tokenFor(await createAdmin(ctx.db));
    for (const url of ['/api/demonstracao/caixa-de-saida', '/api/demonstracao/caixa-de-saida/x/anexos/0']) {
      const response = await ctx.request('GET', url, { token });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: 'Disponível só no modo demonstração.' });
    }
  });
});
