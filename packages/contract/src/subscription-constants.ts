/**
 * Values of e-mail subscriptions that need no schema (docs/requirements.md#subscriptions). Imports nothing (no zod),
 * so the web app can use them at run time; subscriptions.ts exports the same values for the API.
 */

export const FORMATOS_ASSINATURA = ['PDF', 'PPTX'] as const;
export type FormatoAssinatura = (typeof FORMATOS_ASSINATURA)[number];

/**
 * 'diaria', 'semanal' and 'mensal' follow a clock (`hora`, in `fusoHorario`); 'apos-atualizacao' is sent once for each
 * completed refresh of the panel's dataset, and has no `hora` (docs/requirements.md#subscriptions-after-refresh).
 */
export const FREQUENCIAS = ['diaria', 'semanal', 'mensal', 'apos-atualizacao'] as const;
export type Frequencia = (typeof FREQUENCIAS)[number];

/** The kinds sent at a time of day. */
export const FREQUENCIAS_COM_HORA = ['diaria', 'semanal', 'mensal'] as const satisfies readonly Frequencia[];

export const FREQUENCIA_ROTULOS: Record<Frequencia, string> = {
  diaria: 'Diária',
  semanal: 'Semanal',
  mensal: 'Mensal',
  'apos-atualizacao': 'Após cada atualização dos dados',
};

/** How a subscription sent after each refresh reads in the lists, and its 'Próximo envio'. */
export const QUANDO_ATUALIZADOS = 'Quando os dados forem atualizados';
export const PROXIMO_APOS_ATUALIZACAO = 'após a próxima atualização';

/** The longest quiet window of a subscription sent after each refresh ('no máximo uma vez a cada N horas'): a week. */
export const MAX_INTERVALO_HORAS = 168;

/** 'no máximo uma vez a cada N horas', as the lists write it. */
export function intervaloRotulo(horas: number): string {
  return horas === 1 ? 'no máximo uma vez por hora' : `no máximo uma vez a cada ${horas} horas`;
}

/** ISO weekdays: 1 is Monday, 7 is Sunday (diaSemana). */
export const DIAS_SEMANA: Record<number, string> = {
  1: 'segunda-feira',
  2: 'terça-feira',
  3: 'quarta-feira',
  4: 'quinta-feira',
  5: 'sexta-feira',
  6: 'sábado',
  7: 'domingo',
};

/** The last day of the month a monthly subscription may name: every month has it. */
export const MAX_DIA_MES = 28;

/** How many subscriptions one person may own. */
export const MAX_ASSINATURAS_POR_PESSOA = 100;

/** How many people and groups one administrator's subscription may name. */
export const MAX_DESTINATARIOS = 500;

/**
 * A subscription's state as its owner reads it: 'ativa' (sent on schedule), 'pausada' (by its owner or an
 * administrator), 'sem-acesso' (its owner, or every recipient, may no longer open the panel; the owner's account is
 * inactive; or the owner of a subscription for others is no longer an administrator: nothing is sent, and the answer
 * says which in `motivoSituacao`).
 */
export const SITUACOES_ASSINATURA = ['ativa', 'pausada', 'sem-acesso'] as const;
export type SituacaoAssinatura = (typeof SITUACOES_ASSINATURA)[number];

export const SITUACAO_ROTULOS: Record<SituacaoAssinatura, string> = {
  ativa: 'Ativa',
  pausada: 'Pausada',
  'sem-acesso': 'Sem acesso',
};

/** One delivery of a subscription (an occurrence of its schedule, or 'Enviar agora'). */
export const ESTADOS_ENVIO = ['pendente', 'executando', 'enviado', 'falhou'] as const;
export type EstadoEnvio = (typeof ESTADOS_ENVIO)[number];

export const ASSINATURA_MESSAGES = {
  naoEncontrada: 'Assinatura não encontrada.',
  visaoNaoEncontrada: 'Visão salva não encontrada neste painel.',
  paginaEVisao: 'Escolha a página atual (pagina) ou uma visão salva (visaoId), não as duas.',
  somenteAdministradores: 'Somente administradores podem assinar para outras pessoas e grupos.',
  semDestinatarios: 'Escolha ao menos uma pessoa ou um grupo.',
  destinatarioDesconhecido: 'Uma das pessoas ou um dos grupos escolhidos não existe.',
  limite: `Você já tem ${MAX_ASSINATURAS_POR_PESSOA} assinaturas, o máximo. Exclua uma para criar outra.`,
  exportacaoDesativada: 'A exportação está desativada para este painel, e a assinatura depende dela.',
  semAcesso: 'Você não tem mais acesso a este painel: a assinatura não é enviada.',
  contaInativa: 'Esta conta está inativa: a assinatura não é enviada.',
  donoSemAcesso: 'O dono não pode mais abrir este painel: a assinatura não é enviada.',
  donoInativo: 'A conta do dono está inativa: a assinatura não é enviada.',
  donoNaoAdministrador: 'O dono não é mais administrador: a assinatura para outras pessoas e grupos não é enviada.',
  somenteDonoAltera:
    'Somente o dono altera a assinatura. Administradores podem pausar, retomar ou excluir a de outra pessoa.',
  somenteDonoEnvia: 'Somente o dono pode enviar a assinatura agora.',
  pausada: 'A assinatura está pausada. Retome-a para enviar.',
  envioEmAndamento: 'Um envio desta assinatura já está em andamento.',
  semTransporte: 'O envio de e-mail não está configurado neste servidor.',
  arquivoNaoEncontrado: 'Arquivo não encontrado ou expirado.',
  criada: 'Assinatura criada.',
  envioSolicitado: 'Envio solicitado. O e-mail chega em alguns minutos.',
  horaObrigatoria: 'Uma assinatura diária, semanal ou mensal precisa da hora (hora).',
  horaSemAgenda: 'A hora (hora) não vale para assinaturas enviadas após cada atualização dos dados.',
  intervaloSoAposAtualizacao:
    'O intervalo (intervaloHoras) só vale para assinaturas enviadas após cada atualização dos dados.',
} as const;

/** 'Enviar agora' beyond the allowance (SUBSCRIPTION_SEND_NOW_PER_HOUR): when the person may ask again. */
export function limiteEnviarAgora(limit: number, minutes: number): string {
  const wait = minutes <= 1 ? '1 minuto' : `${minutes} minutos`;
  return `Você já pediu ${limit} envios imediatos na última hora, o máximo. Tente de novo em ${wait}; os envios agendados seguem normalmente.`;
}

/** What an administrator reads when a delivery ended without sending (the subscription's last failure). */
export const FALHAS_ENVIO = {
  exportacao: 'O Power BI não conseguiu exportar o relatório.',
  email: 'O servidor de e-mail recusou ou não respondeu.',
  semDestinatarios: 'Nenhum destinatário pode abrir o painel.',
  interno: 'Erro interno do portal ao preparar o envio.',
} as const;
