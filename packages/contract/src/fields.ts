import { z } from 'zod';

// Portuguese defaults for every message we do not write ourselves (wrong types, unknown formats).
z.config(z.locales.pt());

/** A required text field: trimmed, non-empty, bounded. Messages name the field as the client sends it. */
export function requiredText(label: string, field: string, max: number) {
  const required = `${label} (${field}) é obrigatório.`;
  return z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(max, `${label} (${field}) deve ter no máximo ${max} caracteres.`);
}

/** An optional text field: trimmed; empty becomes null on save. */
export function optionalText(label: string, field: string, max: number) {
  return z
    .string({ error: `${label} (${field}) deve ser um texto.` })
    .trim()
    .max(max, `${label} (${field}) deve ter no máximo ${max} caracteres.`)
    .nullable()
    .optional();
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Power BI workspace and report ids are GUIDs; we keep them lower-case. */
export function guid(label: string, field: string) {
  const required = `${label} (${field}) é obrigatório.`;
  return z
    .string({ error: required })
    .trim()
    .toLowerCase()
    .min(1, required)
    .regex(GUID, `${label} (${field}) deve ser um GUID, como 00000000-0000-0000-0000-000000000000.`);
}

export function email(field: string) {
  return z
    .string({ error: `${field} deve conter e-mails.` })
    .trim()
    .toLowerCase()
    .check(z.email({ error: (issue) => `${field}: '${String(issue.input)}' não é um e-mail válido.` }))
    .max(254, `${field}: e-mail com mais de 254 caracteres.`);
}

export function positiveId(label: string) {
  return z.coerce
    .number({ error: `${label} deve ser um número.` })
    .int(`${label} deve ser um número inteiro.`)
    .min(1, `${label} deve ser maior que zero.`)
    .max(2_147_483_647, `${label} é grande demais.`);
}

/** Dates travel as ISO 8601 strings. */
export const isoDate = z.string().meta({ format: 'date-time' });

export const errorResponse = z
  .object({ message: z.string() })
  .meta({ id: 'Erro', description: 'Toda resposta de erro: uma mensagem em português.' });
export type ErrorResponse = z.infer<typeof errorResponse>;

export const idParams = z.object({ id: positiveId('O id') });
