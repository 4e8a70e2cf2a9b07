/** The query keys of '/capacidade'. Only this feature reads them, so they live here, as usage-keys.ts does for '/uso'. */
export const capacityKeys = {
  all: ['capacidade'] as const,
  capacity: ['capacidade', 'estado'] as const,
  history: ['capacidade', 'historico'] as const,
};
