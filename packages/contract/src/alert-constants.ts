/**
 * Values of the alerts that need no schema (docs/requirements.md#alerts). Imports nothing (no zod), so the web app can
 * use them at run time; alerts.ts exports the same values for the API.
 */

export const EVENTOS_ALERTA = ['falha-atualizacao', 'painel-indisponivel'] as const;
export type EventoAlerta = (typeof EVENTOS_ALERTA)[number];

/** How the pages name each event. */
export const NOMES_EVENTOS_ALERTA: Record<EventoAlerta, string> = {
  'falha-atualizacao': 'Falha na atualização dos dados',
  'painel-indisponivel': 'Painel indisponível',
};

export const ALERTA_MESSAGES = {
  destinatarioDesconhecido: 'Uma das pessoas ou um dos grupos escolhidos não existe.',
  semDestinatarios: 'Escolha ao menos uma pessoa ou um grupo para receber os alertas ligados.',
  eventos: `Os eventos devem ser uma lista com: ${EVENTOS_ALERTA.join(', ')}.`,
} as const;
