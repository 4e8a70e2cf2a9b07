import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditoriaQuery, paginaAuditoria } from '@paineis/contract/audit';
import { errorResponses } from '../../lib/route-schema.ts';
import { listAudit } from './audit.ts';

export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/auditoria',
    {
      config: { admin: true },
      schema: {
        tags: ['Auditoria'],
        summary: 'Alterações administrativas, logins, logouts, logins recusados e limitados, da mais recente',
        description:
          'Em páginas de 50; `antesDe` recebe o `proxima` da página anterior. `usuario` filtra por id ou por parte do e-mail.',
        querystring: auditoriaQuery,
        response: { 200: paginaAuditoria, ...errorResponses(400, 403) },
      },
    },
    async (request) => listAudit(app.db, request.query),
  );
};
