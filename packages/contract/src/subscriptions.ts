import { z } from 'zod';
import { directoryId, isoDate, isTimeZone, plainText, positiveId } from './fields.ts';
import {
  ASSINATURA_MESSAGES,
  ESTADOS_ENVIO,
  FORMATOS_ASSINATURA,
  FREQUENCIAS,
  MAX_DESTINATARIOS,
  MAX_INTERVALO_HORAS,
  MAX_DIA_MES,
  SITUACOES_ASSINATURA,
} from './subscription-constants.ts';

// One source, zod-free for the web app.
export * from './subscription-constants.ts';

/**
 * E-mail subscriptions (docs/requirements.md#subscriptions): a panel exported to PDF or PowerPoint on a schedule and
 * mailed, rendered for every recipient with their own RLS identity.
 */

export const horaAssinatura = z
  .string({ error: 'A hora (hora) deve ser um texto no formato HH:MM, como 07:30.' })
  .regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, 'A hora (hora) deve estar no formato HH:MM, de 00:00 a 23:59.');

/** An IANA time zone the server knows (Intl's own list). */
export const fusoHorario = z
  .string({ error: 'O fuso horário (fusoHorario) deve ser um texto, como America/Sao_Paulo.' })
  .max(100, 'O fuso horário (fusoHorario) deve ter no máximo 100 caracteres.')
  .refine(isTimeZone, 'O fuso horário (fusoHorario) deve ser um fuso IANA, como America/Sao_Paulo.');

const formato = z.enum(FORMATOS_ASSINATURA, { error: 'O formato (formato) deve ser PDF ou PPTX.' });
const frequencia = z.enum(FREQUENCIAS, {
  error: "A frequência (frequencia) deve ser 'diaria', 'semanal', 'mensal' ou 'apos-atualizacao'.",
});
const intervaloHoras = z
  .number({ error: `O intervalo (intervaloHoras) deve ser um número de horas de 1 a ${MAX_INTERVALO_HORAS}.` })
  .int(`O intervalo (intervaloHoras) deve ser um número de horas de 1 a ${MAX_INTERVALO_HORAS}.`)
  .min(1, `O intervalo (intervaloHoras) deve ser um número de horas de 1 a ${MAX_INTERVALO_HORAS}.`)
  .max(MAX_INTERVALO_HORAS, `O intervalo (intervaloHoras) deve ser um número de horas de 1 a ${MAX_INTERVALO_HORAS}.`);
const diaSemana = z
  .number({ error: 'O dia da semana (diaSemana) deve ser um número de 1 (segunda-feira) a 7 (domingo).' })
  .int('O dia da semana (diaSemana) deve ser um número de 1 (segunda-feira) a 7 (domingo).')
  .min(1, 'O dia da semana (diaSemana) deve ser um número de 1 (segunda-feira) a 7 (domingo).')
  .max(7, 'O dia da semana (diaSemana) deve ser um número de 1 (segunda-feira) a 7 (domingo).');
const diaMes = z
  .number({ error: `O dia do mês (diaMes) deve ser um número de 1 a ${MAX_DIA_MES}.` })
  .int(`O dia do mês (diaMes) deve ser um número de 1 a ${MAX_DIA_MES}.`)
  .min(1, `O dia do mês (diaMes) deve ser um número de 1 a ${MAX_DIA_MES}.`)
  .max(MAX_DIA_MES, `O dia do mês (diaMes) deve ser um número de 1 a ${MAX_DIA_MES}.`);
const pagina = plainText('Página do relatório (pagina)', {
  required: 'Página do relatório (pagina) não pode ser vazia.',
  max: 200,
  tooLong: 'Página do relatório (pagina) deve ter no máximo 200 caracteres.',
});
const visaoId = z.uuid({ error: 'O id da visão (visaoId) deve ser um UUID.' });

/** An administrator's recipients: people (usuarios.id) and directory groups (grupos.id). */
export const destinatariosBody = z
  .object({
    usuarios: z
      .array(directoryId('Cada pessoa (destinatarios.usuarios)'), {
        error: 'As pessoas (destinatarios.usuarios) devem ser uma lista de ids.',
      })
      .max(MAX_DESTINATARIOS, `No máximo ${MAX_DESTINATARIOS} pessoas por assinatura.`)
      .default([]),
    grupos: z
      .array(directoryId('Cada grupo (destinatarios.grupos)'), {
        error: 'Os grupos (destinatarios.grupos) devem ser uma lista de ids.',
      })
      .max(MAX_DESTINATARIOS, `No máximo ${MAX_DESTINATARIOS} grupos por assinatura.`)
      .default([]),
  })
  .refine(
    (d) => d.usuarios.length + d.grupos.length > 0,
    'Escolha ao menos uma pessoa ou um grupo para receber a assinatura (destinatarios).',
  );

/** The schedule's day must match its kind: diaSemana for 'semanal' only, diaMes for 'mensal' only. */
function scheduleDays(
  value: {
    frequencia?: string;
    hora?: string | null;
    diaSemana?: number | null;
    diaMes?: number | null;
    intervaloHoras?: number | null;
  },
  ctx: z.RefinementCtx,
) {
  if (value.frequencia === undefined) return;
  const { frequencia: kind, diaSemana: weekday, diaMes: monthDay } = value;
  if (kind === 'apos-atualizacao' && value.hora != null) {
    ctx.addIssue({ code: 'custom', path: ['hora'], message: ASSINATURA_MESSAGES.horaSemAgenda });
  }
  if (kind !== 'apos-atualizacao' && value.intervaloHoras != null) {
    ctx.addIssue({ code: 'custom', path: ['intervaloHoras'], message: ASSINATURA_MESSAGES.intervaloSoAposAtualizacao });
  }
  if (kind === 'semanal' && (weekday === undefined || weekday === null)) {
    ctx.addIssue({
      code: 'custom',
      path: ['diaSemana'],
      message: 'Uma assinatura semanal precisa do dia da semana (diaSemana).',
    });
  }
  if (kind === 'mensal' && (monthDay === undefined || monthDay === null)) {
    ctx.addIssue({
      code: 'custom',
      path: ['diaMes'],
      message: 'Uma assinatura mensal precisa do dia do mês (diaMes).',
    });
  }
  if (kind !== 'semanal' && weekday !== undefined && weekday !== null) {
    ctx.addIssue({
      code: 'custom',
      path: ['diaSemana'],
      message: 'O dia da semana (diaSemana) só vale para assinaturas semanais.',
    });
  }
  if (kind !== 'mensal' && monthDay !== undefined && monthDay !== null) {
    ctx.addIssue({
      code: 'custom',
      path: ['diaMes'],
      message: 'O dia do mês (diaMes) só vale para assinaturas mensais.',
    });
  }
}

const pageOrView = (value: { pagina?: string | null; visaoId?: string | null }, ctx: z.RefinementCtx) => {
  if (value.pagina != null && value.visaoId != null) {
    ctx.addIssue({
      code: 'custom',
      path: ['visaoId'],
      message: ASSINATURA_MESSAGES.paginaEVisao,
    });
  }
};

/**
 * POST /assinaturas. `fusoHorario` defaults to USAGE_TIME_ZONE; `destinatarios` is for administrators only. `hora` is
 * required for the kinds sent at a time of day, and refused for 'apos-atualizacao', whose `intervaloHoras` (optional)
 * is its quiet window.
 */
export const assinaturaBody = z
  .object({
    painelId: positiveId('O id do painel (painelId)'),
    formato,
    frequencia,
    hora: horaAssinatura.nullable().optional(),
    diaSemana: diaSemana.nullable().optional(),
    diaMes: diaMes.nullable().optional(),
    intervaloHoras: intervaloHoras.nullable().optional(),
    fusoHorario: fusoHorario.optional(),
    pagina: pagina.nullable().optional(),
    visaoId: visaoId.nullable().optional(),
    destinatarios: destinatariosBody.optional(),
  })
  .superRefine(scheduleDays)
  .superRefine((value, ctx) => {
    if (value.frequencia !== 'apos-atualizacao' && value.hora == null) {
      ctx.addIssue({ code: 'custom', path: ['hora'], message: ASSINATURA_MESSAGES.horaObrigatoria });
    }
  })
  .superRefine(pageOrView);
export type AssinaturaBody = z.input<typeof assinaturaBody>;

/**
 * PATCH /assinaturas/{id}: any of the fields, and `ativa` to pause or resume. A new `frequencia` comes with its day;
 * a day without `frequencia` must suit the kind stored (checked by the server).
 */
export const assinaturaPatchBody = z
  .object({
    formato: formato.optional(),
    frequencia: frequencia.optional(),
    hora: horaAssinatura.optional(),
    diaSemana: diaSemana.nullable().optional(),
    diaMes: diaMes.nullable().optional(),
    intervaloHoras: intervaloHoras.nullable().optional(),
    fusoHorario: fusoHorario.optional(),
    pagina: pagina.nullable().optional(),
    visaoId: visaoId.nullable().optional(),
    ativa: z.boolean({ error: 'Ativa (ativa) deve ser verdadeiro ou falso.' }).optional(),
    destinatarios: destinatariosBody.optional(),
  })
  .superRefine(scheduleDays)
  .superRefine(pageOrView);
export type AssinaturaPatchBody = z.input<typeof assinaturaPatchBody>;

export const assinaturaParams = z.object({ id: z.uuid({ error: 'O id da assinatura deve ser um UUID.' }) });
export const arquivoAssinaturaParams = z.object({ id: z.uuid({ error: 'O id do arquivo deve ser um UUID.' }) });

const pessoa = z.object({ id: z.string(), displayName: z.string(), email: z.string() });
const grupo = z.object({ id: z.string(), displayName: z.string() });

export const assinatura = z
  .object({
    id: z.string(),
    painelId: z.number().int(),
    nomePainel: z.string(),
    formato,
    frequencia,
    /** Null for 'apos-atualizacao'. */
    hora: z.string().nullable(),
    diaSemana: z.number().int().nullable(),
    diaMes: z.number().int().nullable(),
    /** 'apos-atualizacao' only: at most one message every so many hours; null when every refresh is sent. */
    intervaloHoras: z.number().int().nullable(),
    fusoHorario: z.string(),
    pagina: z.string().nullable(),
    visaoId: z.string().nullable(),
    /** The saved view's name, while it exists. */
    nomeVisao: z.string().nullable(),
    /** False while its owner paused it. */
    ativa: z.boolean(),
    situacao: z.enum(SITUACOES_ASSINATURA),
    /** Why it is 'sem-acesso' (null otherwise), in Portuguese. */
    motivoSituacao: z.string().nullable(),
    /** The next scheduled delivery; null while paused, and for 'apos-atualizacao' (it waits for a refresh). */
    proximoEnvio: isoDate.nullable(),
    ultimoEnvio: isoDate.nullable(),
    /** The last delivery that ended without sending to everyone, while no later one succeeded. */
    ultimaFalha: z.object({ em: isoDate, motivo: z.string() }).nullable(),
    /** Who made it. */
    dono: pessoa,
    /** An administrator's recipients; null when the owner alone receives it. */
    destinatarios: z.object({ usuarios: z.array(pessoa), grupos: z.array(grupo) }).nullable(),
    criadaEm: isoDate,
  })
  .meta({ id: 'Assinatura' });
export type Assinatura = z.infer<typeof assinatura>;

export const assinaturas = z.object({ assinaturas: z.array(assinatura) }).meta({ id: 'Assinaturas' });
export type Assinaturas = z.infer<typeof assinaturas>;

/** POST /assinaturas/{id}/enviar-agora: the delivery queued (202). */
export const envioSolicitado = z
  .object({ envioId: z.string(), estado: z.enum(ESTADOS_ENVIO), message: z.string() })
  .meta({ id: 'EnvioSolicitado' });
export type EnvioSolicitado = z.infer<typeof envioSolicitado>;

/** The demo outbox (admin, demo mode only): the messages the Graph stand-in received through sendMail. */
export const mensagemDemonstracao = z
  .object({
    id: z.string(),
    de: z.string(),
    para: z.array(z.string()),
    assunto: z.string(),
    /** The HTML body as sent. */
    corpo: z.string(),
    enviadaEm: isoDate,
    anexos: z.array(z.object({ nome: z.string(), tipo: z.string(), tamanho: z.number().int() })),
  })
  .meta({ id: 'MensagemDemonstracao' });
export type MensagemDemonstracao = z.infer<typeof mensagemDemonstracao>;
export const caixaDeSaida = z
  .object({ mensagens: z.array(mensagemDemonstracao) })
  .meta({ id: 'CaixaDeSaidaDemonstracao' });
export type CaixaDeSaida = z.infer<typeof caixaDeSaida>;
export const anexoDemonstracaoParams = z.object({
  id: z.string().min(1).max(200),
  indice: z
    .string()
    .regex(/^[0-9]{1,3}$/, 'O índice do anexo deve ser um número.')
    .transform(Number),
});
