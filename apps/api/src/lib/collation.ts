const collator = new Intl.Collator('pt-BR', { sensitivity: 'base', numeric: true });

/** Names in pt-BR reading order: case and accents ignored, numbers by value ('Área 2' before 'Área 10'). */
export const byNome = (a: { nome: string }, b: { nome: string }) => collator.compare(a.nome, b.nome);
