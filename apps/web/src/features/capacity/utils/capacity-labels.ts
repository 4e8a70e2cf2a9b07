import type {
  EstadoCapacidade,
  MotivoCapacidade,
  QuemRetoma,
  TipoCapacidade,
} from '@paineis/contract/capacity-constants';

/** The capacity's state as the screen says it, and the badge colour it wears. */
export const NOMES_ESTADOS: Record<EstadoCapacidade, { label: string; bg: string }> = {
  ativa: { label: 'Ativa', bg: 'success' },
  pausada: { label: 'Pausada', bg: 'secondary' },
  pausando: { label: 'Pausando…', bg: 'warning' },
  retomando: { label: 'Retomando…', bg: 'info' },
  escalando: { label: 'Alterando o SKU…', bg: 'info' },
  falhou: { label: 'Falhou', bg: 'danger' },
  desconhecida: { label: 'Desconhecida', bg: 'light' },
};

export const NOMES_TIPOS: Record<TipoCapacidade, string> = {
  embedded: 'Power BI Embedded',
  fabric: 'Fabric',
};

/** The history's reasons (issue 40). */
export const NOMES_MOTIVOS: Record<MotivoCapacidade, string> = {
  horario: 'Horário',
  ociosidade: 'Ociosidade',
  abertura: 'Abertura de painel',
  administrador: 'Administrador',
  envio: 'Envio de assinatura',
  exportacao: 'Exportação',
  atualizacao: 'Atualização agendada',
  externo: 'Fora do portal',
};

export const NOMES_QUEM_RETOMA: Record<QuemRetoma, string> = {
  todos: 'Todos',
  administradores: 'Somente administradores',
  ninguem: 'Ninguém',
};

/** 0 = domingo … 6 = sábado, as the policy numbers them. */
export const DIAS_SEMANA = ['Domingo', 'Segunda', 'Terça', 'Quarta', 'Quinta', 'Sexta', 'Sábado'] as const;

/** Every SKU Azure sells of each kind, smallest first. */
export const SKUS: Record<TipoCapacidade, readonly string[]> = {
  embedded: ['A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'A7', 'A8'],
  fabric: ['F2', 'F4', 'F8', 'F16', 'F32', 'F64', 'F128', 'F256', 'F512', 'F1024', 'F2048'],
};

/** A SKU's kind, from its letter. */
export const tipoDoSku = (sku: string): TipoCapacidade => (sku.startsWith('F') ? 'fabric' : 'embedded');

// An admin screen, loaded on its own: Intl's first use costs nothing on the first screen (decision 010).
const money = new Intl.NumberFormat('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const hours = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1 });

/** An amount in the organisation's currency (the policy's prices): '1.234,50'. */
export const formatMoney = (n: number) => money.format(n);
/** Hours to a tenth: '123,5 h'. */
export const formatHours = (n: number) => `${hours.format(n)} h`;
