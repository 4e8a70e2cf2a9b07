import { z } from 'zod';
import { isoDate, isTimeZone, optionalText } from './fields.ts';
import {
  MAX_FAIXAS,
  MAX_MINUTOS_OCIOSO,
  MIN_MINUTOS_OCIOSO,
  ESTADOS_CAPACIDADE,
  MOTIVOS_CAPACIDADE,
  QUEM_RETOMA,
  SKU_PATTERN,
  TIPOS_CAPACIDADE,
} from './capacity-constants.ts';

/*
 * The Power BI capacity that serves the reports, and its cost (docs/decisions/024-capacity-cost.md): its state as
 * Azure Resource Manager reports it, the policy that pauses and wakes it, and the month's hours.
 */

// The values without a schema live in capacity-constants.ts (no zod: the web app loads them); the API takes them here.
export {
  ESTADOS_CAPACIDADE,
  MAX_FAIXAS,
  MAX_MINUTOS_OCIOSO,
  MIN_MINUTOS_OCIOSO,
  MOTIVOS_CAPACIDADE,
  QUEM_RETOMA,
  SKU_PATTERN,
  TEXTOS_CAPACIDADE,
  TIPOS_CAPACIDADE,
  type EstadoCapacidade,
  type MotivoCapacidade,
  type QuemRetoma,
  type TipoCapacidade,
} from './capacity-constants.ts';

const sku = z
  .string({ error: 'SKU (sku) deve ser um texto.' })
  .trim()
  .regex(SKU_PATTERN, 'SKU deve ser um nome do Azure, de A1 a A8 ou de F2 a F2048.');

const HORA = /^([01]\d|2[0-3]):[0-5]\d$/;
const hora = (nome: string) =>
  z.string({ error: `${nome} deve ser um texto.` }).regex(HORA, `${nome} deve ser uma hora no formato HH:MM.`);

/** A stretch of working hours on one weekday (0 = domingo … 6 = sábado), from `inicio` to `fim` the same day. */
export const faixaHorario = z
  .object({
    diaSemana: z
      .number({ error: 'Dia da semana (diaSemana) deve ser um número.' })
      .int('Dia da semana (diaSemana) deve ser um número inteiro.')
      .min(0, 'Dia da semana (diaSemana) vai de 0 (domingo) a 6 (sábado).')
      .max(6, 'Dia da semana (diaSemana) vai de 0 (domingo) a 6 (sábado).'),
    inicio: hora('Início (inicio)'),
    fim: hora('Fim (fim)'),
  })
  .refine((f) => f.inicio < f.fim, {
    error: 'O início de cada faixa de horário deve vir antes do fim.',
    path: ['fim'],
  });
export type FaixaHorario = z.infer<typeof faixaHorario>;

/** PUT /capacidade/politica, answered as `politica` by GET /capacidade. */
export const politicaCapacidade = z
  .object({
    horario: z
      .array(faixaHorario, { error: 'Horário (horario) deve ser uma lista.' })
      .max(MAX_FAIXAS, `São aceitas no máximo ${MAX_FAIXAS} faixas de horário.`),
    fusoHorario: z
      .string({ error: 'Fuso horário (fusoHorario) deve ser um texto.' })
      .refine(isTimeZone, 'Fuso horário desconhecido: use um nome da IANA, como America/Sao_Paulo.'),
    /** Pause after this many minutes with no opening, export or delivery; null: never for idleness. */
    pausarAposMinutosOcioso: z
      .number({ error: 'Minutos ocioso (pausarAposMinutosOcioso) deve ser um número.' })
      .int('Minutos ocioso (pausarAposMinutosOcioso) deve ser um número inteiro.')
      .min(MIN_MINUTOS_OCIOSO, `Pausar após ociosidade: no mínimo ${MIN_MINUTOS_OCIOSO} minutos.`)
      .max(MAX_MINUTOS_OCIOSO, 'Pausar após ociosidade: no máximo 7 dias.')
      .nullable(),
    quemRetomaAoAbrir: z.enum(QUEM_RETOMA, {
      error: "Quem retoma ao abrir (quemRetomaAoAbrir) deve ser 'todos', 'administradores' ou 'ninguem'.",
    }),
    /** Price per hour of each SKU, in the organisation's currency, for the estimate. */
    precoPorHora: z
      .record(
        sku,
        z
          .number({ error: 'Preço por hora deve ser um número.' })
          .min(0, 'Preço por hora não pode ser negativo.')
          .max(100_000, 'Preço por hora é grande demais.'),
        { error: 'Preço por hora (precoPorHora) deve ser um objeto de SKU para preço.' },
      )
      .refine((r) => Object.keys(r).length <= 20, 'São aceitos no máximo 20 preços.'),
    /** A SKU for working hours, scaled back to the capacity's own outside them; null: the same SKU always. */
    skuHorario: sku.nullable(),
    /** Whom the viewer names when the capacity is paused and the person may not wake it. */
    contato: optionalText('Contato', 'contato', 200),
  })
  .meta({ id: 'PoliticaCapacidade' });
export type PoliticaCapacidade = z.infer<typeof politicaCapacidade>;
export type PoliticaCapacidadeBody = z.input<typeof politicaCapacidade>;

/** PUT /capacidade/sku. */
export const alterarSkuBody = z.object({ sku, motivo: optionalText('Motivo', 'motivo', 500) });
/** POST /capacidade/pausar and /retomar: why, for the audit. */
export const acaoCapacidadeBody = z.object({ motivo: optionalText('Motivo', 'motivo', 500) }).nullish();

/** One day of the month: hours the capacity ran and its cost. */
export const diaCapacidade = z.object({
  dia: z.string().meta({ format: 'date' }),
  horasAtiva: z.number(),
  custo: z.number(),
});

/** GET /capacidade. */
export const capacidade = z
  .object({
    /** False when no capacity is configured (CAPACITY_RESOURCE_ID): the rest is then empty. */
    configurada: z.boolean(),
    estado: z.enum(ESTADOS_CAPACIDADE),
    nome: z.string().nullable(),
    tipo: z.enum(TIPOS_CAPACIDADE).nullable(),
    sku: z.string().nullable(),
    /** Azure's reason when the last call failed (a missing role: AuthorizationFailed), for administrators. */
    mensagem: z.string().nullable(),
    /** When the state was last read from Azure. */
    lidoEm: isoDate.nullable(),
    /** About how long a resume takes, in seconds. */
    retomadaSegundos: z.number().int(),
    politica: politicaCapacidade,
    mes: z.object({
      /** The month, YYYY-MM, in the policy's time zone. */
      mes: z.string(),
      horasAtiva: z.number(),
      horasPausada: z.number(),
      custoEstimado: z.number(),
      /** What the month so far would have cost with the capacity always on. */
      custoSempreAtiva: z.number(),
      economia: z.number(),
      dias: z.array(diaCapacidade),
    }),
  })
  .meta({ id: 'Capacidade' });
export type Capacidade = z.infer<typeof capacidade>;

/** GET /capacidade/historico: one change of state, newest first. */
export const mudancaCapacidade = z
  .object({
    id: z.number().int(),
    em: isoDate,
    estado: z.enum(ESTADOS_CAPACIDADE),
    sku: z.string().nullable(),
    motivo: z.enum(MOTIVOS_CAPACIDADE),
    /** The person who caused it (opening a panel, an administrator), when one did. */
    pessoa: z.string().nullable(),
    detalhe: z.string().nullable(),
  })
  .meta({ id: 'MudancaCapacidade' });
export type MudancaCapacidade = z.infer<typeof mudancaCapacidade>;
export const historicoCapacidade = z.array(mudancaCapacidade);

/**
 * The 503 answered when a panel is opened while the capacity is paused or changing: `Retry-After` says when to try
 * again when the opening woke it (or it is already waking); `podeRetomar` false when the person may not wake it.
 */
export const capacidadeIndisponivel = z
  .object({
    message: z.string(),
    capacidade: z.object({
      estado: z.enum(ESTADOS_CAPACIDADE),
      podeRetomar: z.boolean(),
      retomadaSegundos: z.number().int().nullable(),
      contato: z.string().nullable(),
    }),
  })
  .meta({ id: 'CapacidadeIndisponivel' });
export type CapacidadeIndisponivel = z.infer<typeof capacidadeIndisponivel>;
