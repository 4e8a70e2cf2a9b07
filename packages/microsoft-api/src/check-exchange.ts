import { AZURE_CAPACITY_OPERATIONS } from './azure-capacities.ts';
import { ENTRA_OPERATIONS } from './entra.ts';
import type { Exchange, Violation } from './exchange.ts';
import { GRAPH_OPERATIONS } from './graph.ts';
import { GRAPH_MAIL_OPERATIONS } from './graph-mail.ts';
import { findingsOf, queryOf, type AnswerSpec, type Finding, type HeaderRule, type Operation } from './operation.ts';
import { POWER_BI_OPERATIONS } from './power-bi.ts';

/** Every Microsoft call the portal makes, as Microsoft describes it (docs/decisions/016-microsoft-contract-tests.md). */
export const MICROSOFT_OPERATIONS: readonly Operation[] = [
  ...ENTRA_OPERATIONS,
  ...GRAPH_OPERATIONS,
  ...GRAPH_MAIL_OPERATIONS,
  ...POWER_BI_OPERATIONS,
  ...AZURE_CAPACITY_OPERATIONS,
];

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\b/i;
const FORM_TYPE = /^application\/x-www-form-urlencoded\b/i;
const HTML_TYPE = /^text\/html\b/i;
/** What Power BI says an exported file may be (the `produces` of Reports_GetFileOfExportToFileInGroup). */
const FILE_TYPES = /^(application\/[\w.+-]+|image\/[\w.+-]+|text\/csv|text\/xml|multipart\/related)\b/i;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A path template as a pattern: each `{name}` is a part of one segment, captured by name. */
function templatePattern(template: string): RegExp {
  const source = template
    .split(/(\{\w+\})/)
    .map((part) => (/^\{\w+\}$/.test(part) ? `(?<${part.slice(1, -1)}>[^/]+?)` : escape(part)))
    .join('');
  return new RegExp(`^${source}$`);
}

const patterns = new Map<string, RegExp>();
function matchPath(template: string, path: string): Record<string, string> | null {
  let pattern = patterns.get(template);
  if (!pattern) patterns.set(template, (pattern = templatePattern(template)));
  const match = pattern.exec(path);
  return match ? { ...match.groups } : null;
}

const pathOf = (url: string) => url.split('?')[0]!;

/** The operation an exchange is a call of, and its path parameters; null for a call Microsoft's schemas lack. */
export function operationOf(
  exchange: Exchange,
  operations: readonly Operation[] = MICROSOFT_OPERATIONS,
): { operation: Operation; params: Record<string, string> } | null {
  const path = pathOf(exchange.url);
  for (const operation of operations) {
    if (operation.service !== exchange.service || operation.method !== exchange.method) continue;
    if (operation.when && !operation.when(exchange)) continue;
    for (const template of operation.paths) {
      const params = matchPath(template, path);
      if (params) return { operation, params };
    }
  }
  return null;
}

function decoded(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

function headerFindings(rules: Record<string, HeaderRule> | undefined, headers: Record<string, string>): Finding[] {
  const findings: Finding[] = [];
  for (const [name, rule] of Object.entries(rules ?? {})) {
    const value = headers[name];
    if (value === undefined) {
      if (rule.required) findings.push({ at: `header ${name}`, message: 'required' });
      continue;
    }
    const result = rule.value.safeParse(value);
    if (!result.success) findings.push({ at: `header ${name}`, message: result.error.issues[0]!.message });
  }
  return findings;
}

function requestFindings(exchange: Exchange, operation: Operation, params: Record<string, string>): Finding[] {
  const findings: Finding[] = [];
  for (const [name, raw] of Object.entries(params)) {
    const value = decoded(raw);
    const schema = operation.pathParams?.[name];
    if (value === null) findings.push({ at: `path.${name}`, message: 'not percent-encoded properly' });
    else if (schema) findings.push(...findingsOf(schema, value, `path.${name}`));
  }
  const { query, findings: repeated } = queryOf(exchange.url);
  findings.push(...repeated);
  if (operation.query) findings.push(...findingsOf(operation.query, query, 'query'));
  else
    for (const name of Object.keys(query))
      findings.push({ at: `query.${name}`, message: 'not a parameter of the call' });
  findings.push(...headerFindings(operation.headers, exchange.request.headers));

  const { body } = exchange.request;
  if (!operation.body) {
    if (body !== undefined) findings.push({ at: 'body', message: 'the call takes no body' });
  } else {
    const type = exchange.request.headers['content-type'] ?? '';
    const expected = operation.body.content === 'json' ? JSON_TYPE : FORM_TYPE;
    if (!expected.test(type)) {
      findings.push({
        at: 'header content-type',
        message: `not ${operation.body.content === 'json' ? 'JSON' : 'a form'}`,
      });
    }
    findings.push(...findingsOf(operation.body.schema, body, 'body'));
  }
  findings.push(...(operation.check?.(exchange) ?? []));
  return findings;
}

function answerFindings(exchange: Exchange, spec: AnswerSpec): Finding[] {
  const { answer } = exchange;
  const type = answer.headers['content-type'] ?? '';
  const findings: Finding[] = [];
  switch (spec.content) {
    case 'json':
      if (!JSON_TYPE.test(type)) findings.push({ at: 'header content-type', message: `not JSON: '${type}'` });
      else if (answer.body === undefined) findings.push({ at: 'body', message: 'not readable JSON' });
      else if (spec.body) findings.push(...findingsOf(spec.body, answer.body, 'body'));
      break;
    case 'html':
      if (!HTML_TYPE.test(type)) findings.push({ at: 'header content-type', message: `not a page: '${type}'` });
      break;
    case 'file':
      if (!FILE_TYPES.test(type)) findings.push({ at: 'header content-type', message: `not a file type: '${type}'` });
      if (answer.bytes === 0) findings.push({ at: 'body', message: 'an empty file' });
      break;
    case 'none':
      break;
  }
  findings.push(...headerFindings(spec.headers, answer.headers));
  findings.push(...(spec.check?.(exchange) ?? []));
  return findings;
}

/**
 * What is wrong with an exchange by Microsoft's description of the call it is: its request (path parameters,
 * query, headers, body) and its answer (a documented status, its content type, headers and body; any error in the
 * service's error shape). An exchange that is no call the schemas describe is a violation by itself.
 */
export function checkExchange(
  exchange: Exchange,
  operations: readonly Operation[] = MICROSOFT_OPERATIONS,
): Violation[] {
  const name = `${exchange.method} ${exchange.url}`;
  const found = operationOf(exchange, operations);
  if (!found) {
    return [
      {
        operation: null,
        exchange: name,
        part: 'operation',
        at: pathOf(exchange.url),
        message: `no documented ${exchange.service} call is ${exchange.method} ${pathOf(exchange.url)}`,
      },
    ];
  }
  const { operation, params } = found;
  const violation = (part: Violation['part']) => (finding: Finding) => ({
    operation: operation.id,
    exchange: name,
    part,
    ...finding,
  });
  const violations = requestFindings(exchange, operation, params).map(violation('request'));
  const { status } = exchange.answer;
  const spec = operation.answers[status] ?? (status >= 400 && status <= 599 ? operation.errors : undefined);
  if (!spec) {
    const documentedStatuses = Object.keys(operation.answers).join(', ');
    violations.push(
      violation('answer')({
        at: 'status',
        message: `${status} is none of the answers documented (${documentedStatuses})`,
      }),
    );
  } else {
    violations.push(...answerFindings(exchange, spec).map(violation('answer')));
  }
  return violations;
}
