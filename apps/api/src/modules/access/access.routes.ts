import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { acessoPainel, acessoPessoa } from '@paineis/contract/groups';
import { idParams, plainText } from '@paineis/contract/fields';
import { PREPARED_ANSWER } from '../../lib/prepared-json.ts';
import { errorResponses } from '../../lib/route-schema.ts';
import { accessOf, whoCanOpenJson } from './access-explained.ts';

const tags = ['Acessos'];

const personParams = z.object({
  id: plainText('O id de usuário', {
    notText: 'O id de usuário deve ser um texto.',
    required: 'O id de usuário não pode ser vazio.',
    max: 200,
    tooLong: 'O id de usuário deve ter no máximo 200 caracteres.',
  }),
});

/** Who may open a panel and why; why a person may open each panel, with which RLS roles, or why not. */
export const accessRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/paineis/:id/acesso',
    {
      ...PREPARED_ANSWER,
      config: { admin: true },
      schema: {
        tags,
        summary: 'Quem tem acesso ao painel, e por quê (vínculo direto, grupo, administrador)',
        params: idParams,
        response: { 200: acessoPainel, 304: z.null(), ...errorResponses(400, 403, 404) },
      },
    },
    async (request, reply) => reply.sendPrepared(await whoCanOpenJson(app.db, request.params.id)),
  );

  app.get(
    '/usuarios365/:id/acesso',
    {
      config: { admin: true },
      schema: {
        tags,
        summary: 'Os painéis que a pessoa pode abrir, com os motivos e os papéis RLS do seu token, ou por que não',
        params: personParams,
        response: { 200: acessoPessoa, ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => accessOf(app.db, request.params.id),
  );
};
