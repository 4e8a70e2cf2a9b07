/**
 * Values of the capacity (capacity.ts) that need no schema. Like usage-audit-constants.ts, this module imports nothing
 * (no zod), so the web app can use it at run time: the viewer's texts while the capacity is paused, and '/capacidade'.
 * capacity.ts exports the same values for the API.
 */

/** The capacity's state, in the portal's words; 'desconhecida' until Azure has been asked, or when it cannot be. */
export const ESTADOS_CAPACIDADE = [
  'ativa',
  'pausada',
  'pausando',
  'retomando',
  'escalando',
  'falhou',
  'desconhecida',
] as const;
export type EstadoCapacidade = (typeof ESTADOS_CAPACIDADE)[number];

/** 'embedded': an A SKU (Microsoft.PowerBIDedicated); 'fabric': an F SKU (Microsoft.Fabric). */
export const TIPOS_CAPACIDADE = ['embedded', 'fabric'] as const;
export type TipoCapacidade = (typeof TIPOS_CAPACIDADE)[number];

/** Who may wake a paused capacity by opening a panel. */
export const QUEM_RETOMA = ['todos', 'administradores', 'ninguem'] as const;
export type QuemRetoma = (typeof QUEM_RETOMA)[number];

/** Why the capacity changed state: its history's reasons. */
export const MOTIVOS_CAPACIDADE = [
  'horario',
  'ociosidade',
  'abertura',
  'administrador',
  'envio',
  'exportacao',
  'atualizacao',
  'externo',
] as const;
export type MotivoCapacidade = (typeof MOTIVOS_CAPACIDADE)[number];

/** An A or F SKU's name, as Azure spells it (A1…A8, F2…F2048). */
export const SKU_PATTERN = /^(A[1-8]|F(2|4|8|16|32|64|128|256|512|1024|2048))$/;

/** At most this many working-hour stretches in a policy. */
export const MAX_FAIXAS = 28;
/** Idle minutes before a pause: at least this many (a resume takes minutes of billing anyway). */
export const MIN_MINUTOS_OCIOSO = 5;
export const MAX_MINUTOS_OCIOSO = 7 * 24 * 60;

/** The viewer's texts while the capacity is paused. */
export const TEXTOS_CAPACIDADE = {
  iniciando: (segundos: number) => `Iniciando o Power BI… isso leva cerca de ${segundos} segundos`,
  pausada: 'Os relatórios estão pausados fora do horário de uso.',
} as const;
