import { describe, expect, it } from 'vitest';
import type { Configuracao } from '@paineis/contract/configuration';
import { testConfig, useTestApp } from '../../../test/context.ts';
import { createUser } from '../../../test/fixtures.ts';
import type { MailTransport } from '../../integrations/mail/mail-transport.ts';

const mail: MailTransport = {
  kind: 'smtp',
  maxAttachmentBytes: 1024,
  limits: null,
  requestBytes: () => 0,
  maxRequestBytes: null,
  send: async () => ({ messageId: null }),
  close: async () => undefined,
};

describe('GET /api/configuracao', () => {
  describe('with neither Microsoft nor mail configured', () => {
    const ctx = useTestApp();

    it('says so to anyone signed in, and to nobody else', async () => {
      const token = await ctx.tokenFor(await createUser(ctx.db));
      const res = await ctx.request('GET', '/api/configuracao', { token });
      expect(res.statusCode).toBe(200);
      expect(res.json<Configuracao>()).toEqual({
        demonstracao: false,
        powerBi: false,
        email: false,
        idiomaRelatorios: 'pt-BR',
      });
      expect((await ctx.request('GET', '/api/configuracao')).statusCode).toBe(401);
    });
  });

  describe('in demo mode with a mail transport', () => {
    const ctx = useTestApp({ config: testConfig({ DEMO_MODE: 'true' }), mail });

    it('says demo mode and e-mail', async () => {
      const token = await ctx.tokenFor(await createUser(ctx.db));
      const res = await ctx.request('GET', '/api/configuracao', { token });
      expect(res.json<Configuracao>()).toEqual({
        demonstracao: true,
        powerBi: false,
        email: true,
        idiomaRelatorios: 'pt-BR',
      });
    });
  });

  describe('with REPORT_LOCALE=en-US', () => {
    const ctx = useTestApp({ config: testConfig({ REPORT_LOCALE: 'en-US' }) });

    it("gives the portal's report language, which the viewer bootstraps reports with", async () => {
      const token = await ctx.tokenFor(await createUser(ctx.db));
      const res = await ctx.request('GET', '/api/configuracao', { token });
      expect(res.json<Configuracao>().idiomaRelatorios).toBe('en-US');
    });
  });
});
