import { z, type ZodType } from 'zod';
import type { Exchange, MicrosoftApi } from './exchange.ts';

/** What a check found wrong, before it is tied to an exchange and an operation. */
export interface Finding {
  at: string;
  message: string;
}

/** A header by lower-case name: whether Microsoft requires it, and what its value may be. */
export interface HeaderRule {
  required: boolean;
  value: ZodType<string>;
}

/** One documented answer of an operation (by status), or a service's error shape. */
export interface AnswerSpec {
  /** `json` answers are read and checked against `body`; `html` is a page; `file` a download; `none` no body. */
  content: 'json' | 'html' | 'file' | 'none';
  body?: ZodType;
  headers?: Record<string, HeaderRule>;
  /** Checks that need the request too (e.g. that $select was honoured). */
  check?: (exchange: Exchange) => Finding[];
}

/**
 * One call of a Microsoft API as Microsoft describes it. Requests are checked strictly (anything the portal sends
 * that Microsoft does not describe is a disagreement); answers loosely (Microsoft adds fields), except for the
 * spelling of the fields it documents.
 */
export interface Operation {
  service: MicrosoftApi;
  /** The swagger operationId, or the Microsoft Learn page's title. */
  id: string;
  /** Where Microsoft describes it. */
  source: string;
  method: 'GET' | 'POST' | 'PATCH';
  /** Path templates, `{name}` standing for one percent-encoded segment (or part of one). */
  paths: readonly string[];
  /** Schemas of the decoded path parameters. */
  pathParams?: Record<string, ZodType>;
  /** Tells apart operations that share a method and path (the token endpoint's grants). */
  when?: (exchange: Exchange) => boolean;
  /** The query string's parameters, each given once (a strict object; none by default). */
  query?: ZodType;
  headers?: Record<string, HeaderRule>;
  /** The request body; without it, the request must have none. */
  body?: { content: 'json' | 'form'; schema: ZodType };
  /** Request checks across query, headers and body. */
  check?: (exchange: Exchange) => Finding[];
  /** The documented answers by status. */
  answers: Record<number, AnswerSpec>;
  /** The service's error answer, for any 4xx and 5xx status the operation does not list itself. */
  errors: AnswerSpec;
}

export const guid = z.guid();
/** ISO 8601 with a time zone, any number of fractional digits (Power BI writes seven). */
export const dateTime = z.iso.datetime({ offset: true });

/** Runs a refinement even when the object has other issues (zod skips it then by default). */
export const always = { when: () => true };

/**
 * An object Microsoft describes, open to fields it adds later, but not to a documented field spelled otherwise:
 * `tokenID` beside a documented `tokenId` is a mistake, not an addition.
 */
export function documented<Shape extends z.ZodRawShape>(shape: Shape) {
  const byLowerCase = new Map(Object.keys(shape).map((name) => [name.toLowerCase(), name]));
  return z.looseObject(shape).superRefine((value, ctx) => {
    for (const key of Object.keys(value)) {
      const spelled = byLowerCase.get(key.toLowerCase());
      if (spelled !== undefined && !(key in shape)) {
        ctx.addIssue({ code: 'custom', path: [key], message: `spelled '${spelled}' in Microsoft's description` });
      }
    }
    // Even when a field is missing: a misspelt required field is exactly that case.
  }, always);
}

/** Retry-After as RFC 9110 allows it: delay-seconds or an HTTP-date. */
export const retryAfter = z
  .string()
  .regex(
    /^(\d+|(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT)$/,
    'not delay-seconds nor an HTTP-date',
  );

export const bearer: HeaderRule = {
  required: true,
  value: z.string().regex(/^Bearer \S+$/, "not 'Bearer {token}'"),
};

/** `a.b[0].c` for a zod issue path. */
export function pathText(prefix: string, path: readonly PropertyKey[]): string {
  let text = prefix;
  for (const key of path) text += typeof key === 'number' ? `[${key}]` : `${text ? '.' : ''}${String(key)}`;
  return text;
}

/** The findings of checking `value` against `schema`, placed under `prefix`. */
export function findingsOf(schema: ZodType, value: unknown, prefix: string): Finding[] {
  const result = schema.safeParse(value);
  if (result.success) return [];
  return result.error.issues.map((issue) => ({ at: pathText(prefix, issue.path), message: issue.message }));
}

/** The query parameters of a URL, each by name; those given more than once are findings. */
export function queryOf(url: string): { query: Record<string, string>; findings: Finding[] } {
  const search = new URLSearchParams(url.includes('?') ? url.slice(url.indexOf('?') + 1) : '');
  const query: Record<string, string> = {};
  const findings: Finding[] = [];
  for (const name of new Set(search.keys())) {
    const values = search.getAll(name);
    if (values.length > 1) findings.push({ at: `query.${name}`, message: 'given more than once' });
    query[name] = values[0]!;
  }
  return { query, findings };
}

/** The properties a Graph request named in $select (null without $select). */
export function selected(url: string): string[] | null {
  const select = queryOf(url).query.$select;
  return select === undefined
    ? null
    : select
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean);
}
