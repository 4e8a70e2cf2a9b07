import { z } from 'zod';

// Portuguese defaults for every message we do not write ourselves (wrong types, unknown formats).
z.config(z.locales.pt());

/**
 * The text rule every field shares (docs/requirements.md#server-limits). A text is trimmed as JavaScript's
 * `String.prototype.trim` trims, and is then refused when it holds:
 * - a control character: U+0000 to U+001F and U+007F (PostgreSQL cannot store U+0000 at all; the others have
 *   no place in a name). A multi-line text (a description) may hold tab, line feed and carriage return;
 * - half of a UTF-16 surrogate pair without the other half (JSON's `"\ud800"`), which cannot be written as
 *   UTF-8 and would come back as U+FFFD.
 * Whatever is accepted is stored and answered as it was sent, after the trim: byte for byte.
 */
export function textProblem(text: string, multiline = false): string | null {
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) {
      if (multiline && (c === 0x09 || c === 0x0a || c === 0x0d)) continue;
      return `um caractere de controle (${codePoint(c)})`;
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      const next = text.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        i += 1;
        continue;
      }
      return `um caractere inválido (${codePoint(c)}, metade de um par substituto UTF-16 sem a outra)`;
    }
  }
  return null;
}

const codePoint = (c: number) => `U+${c.toString(16).toUpperCase().padStart(4, '0')}`;

/** Whether `zone` is an IANA time zone this runtime knows (Intl's own list), as America/Sao_Paulo. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** A zod check for the text rule above; `name` is how the message names the field. */
function storableText(name: string, multiline = false) {
  return (value: string, ctx: z.RefinementCtx) => {
    const problem = textProblem(value, multiline);
    if (problem) ctx.addIssue({ code: 'custom', message: `${name} não pode conter ${problem}.`, input: value });
  };
}

/**
 * A text field that is not otherwise shaped (an id, a password): bounded, and storable. `trim` and the
 * messages are the caller's.
 */
export function plainText(
  name: string,
  options: {
    required: string;
    max: number;
    tooLong: string;
    /** When the value is not a string at all; `required` by default. */
    notText?: string;
    trim?: boolean;
    multiline?: boolean;
  },
) {
  const base = z.string({ error: options.notText ?? options.required });
  return (options.trim === false ? base : base.trim())
    .superRefine(storableText(name, options.multiline))
    .min(1, options.required)
    .max(options.max, options.tooLong);
}

/** An id the directory gave (a person's, a group's), as a request names it: non-empty, bounded, storable. */
export function directoryId(label: string) {
  return plainText(label, {
    required: `${label} não pode ser vazio.`,
    notText: `${label} deve ser um texto.`,
    max: 200,
    tooLong: `${label} deve ter no máximo 200 caracteres.`,
    trim: false,
  });
}

/** A required text field: trimmed, non-empty, bounded, storable. Messages name the field as the client sends it. */
export function requiredText(label: string, field: string, max: number) {
  return plainText(`${label} (${field})`, {
    required: `${label} (${field}) é obrigatório.`,
    max,
    tooLong: `${label} (${field}) deve ter no máximo ${max} caracteres.`,
  });
}

/** An optional text field: trimmed, storable; empty becomes null on save. `multiline` lets it hold line breaks. */
export function optionalText(label: string, field: string, max: number, options: { multiline?: boolean } = {}) {
  return z
    .string({ error: `${label} (${field}) deve ser um texto.` })
    .trim()
    .superRefine(storableText(`${label} (${field})`, options.multiline))
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

/** At most this much of a refused input is quoted back in a message. */
const QUOTED = 80;
const quote = (input: unknown) => {
  const text = String(input);
  return text.length > QUOTED ? `${text.slice(0, QUOTED)}…` : text;
};

/** An e-mail address: trimmed, lower-cased, and of the plain form `nome@dominio.tld` (ASCII only). */
export function email(field: string) {
  return z
    .string({ error: `${field} deve conter e-mails.` })
    .trim()
    .toLowerCase()
    .superRefine(storableText(`${field}: o e-mail`))
    .check(z.email({ error: (issue) => `${field}: '${quote(issue.input)}' não é um e-mail válido.` }))
    .max(254, `${field}: e-mail com mais de 254 caracteres.`);
}

export const MAX_ID = 2_147_483_647;

/** An id in a JSON body: a whole number from 1 to MAX_ID (a JSON number; a string is not an id). */
export function positiveId(label: string) {
  return z
    .number({ error: `${label} deve ser um número.` })
    .int(`${label} deve ser um número inteiro.`)
    .min(1, `${label} deve ser maior que zero.`)
    .max(MAX_ID, `${label} é grande demais.`);
}

/**
 * An id in an address (`/paineis/{id}`): decimal digits only, with no sign, space, point, exponent, hex prefix
 * or leading zero (`8`, never `08`, `+8`, ` 8`, `8.0`, `1e1` or `0x8`), so each resource has one address; then
 * a whole number from `min` to MAX_ID.
 */
export function pathId(label: string, min: 0 | 1 = 1) {
  const notDecimal = `${label} deve ser um número inteiro escrito só com algarismos, como 8.`;
  return (
    z
      .string({ error: notDecimal })
      .regex(/^[0-9]+$/, notDecimal)
      .refine((digits) => !/^0[0-9]/.test(digits), `${label} não pode começar com zero (escreva 8, não 08).`)
      // What the OpenAPI document says: the whole rule, in one pattern.
      .meta({
        pattern: min === 1 ? '^[1-9][0-9]{0,9}$' : '^(0|[1-9][0-9]{0,9})$',
        description: `Número inteiro de ${min} a ${MAX_ID}, só com algarismos, sem sinal nem zeros à esquerda.`,
      })
      // Digits only by now; more than ten of them is over MAX_ID whatever they are.
      .transform((digits) => (digits.length > 10 ? MAX_ID + 1 : Number(digits)))
      .pipe(
        z
          .number()
          .min(min, min === 1 ? `${label} deve ser maior que zero.` : `${label} não pode ser negativo.`)
          .max(MAX_ID, `${label} é grande demais.`),
      )
  );
}

/** Dates travel as ISO 8601 strings. */
export const isoDate = z.string().meta({ format: 'date-time' });

export const errorResponse = z
  .object({ message: z.string() })
  .meta({ id: 'Erro', description: 'Toda resposta de erro: uma mensagem em português.' });
export type ErrorResponse = z.infer<typeof errorResponse>;

export const idParams = z.object({ id: pathId('O id') });
