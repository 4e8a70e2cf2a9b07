import { z } from 'zod';

/**
 * GET /configuracao: what the web app needs to know of how the server is set up, so it asks instead of guessing from
 * other calls' failures (a 404 from the demo outbox, say).
 */
export const configuracao = z
  .object({
    demonstracao: z.boolean().meta({
      description: 'Modo demonstração: serviços Microsoft simulados localmente, e a caixa de saída de demonstração.',
    }),
    powerBi: z.boolean().meta({ description: 'Os serviços Microsoft (Power BI, Entra ID, Graph) estão configurados.' }),
    email: z.boolean().meta({ description: 'Há um meio de envio de e-mails para as assinaturas (SMTP ou Graph).' }),
    idiomaRelatorios: z.string().meta({
      description:
        'Idioma e formatos (BCP 47, como pt-BR) com que os relatórios abrem, salvo o idioma próprio de um painel (REPORT_LOCALE).',
    }),
  })
  .meta({ id: 'Configuracao' });
export type Configuracao = z.infer<typeof configuracao>;
