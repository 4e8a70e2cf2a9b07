import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { configuracao } from '@paineis/contract/configuration';
import { errorResponses } from '../../lib/route-schema.ts';

/** docs/requirements.md#configuration-call: the server's set-up as the web app needs it, to anyone signed in. */
export const configurationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/configuracao',
    {
      schema: {
        tags: ['Configuração'],
        summary: 'O que o aplicativo web precisa saber da configuração do servidor',
        description:
          'Se roda em modo demonstração, se os serviços Microsoft estão configurados, se envia e-mails e o idioma padrão dos relatórios.',
        response: { 200: configuracao, ...errorResponses() },
      },
    },
    async () => ({
      demonstracao: app.config.demoMode,
      powerBi: app.config.microsoft !== null,
      email: app.mail !== null,
      idiomaRelatorios: app.config.reportLocale,
    }),
  );
};
