import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * One call file per endpoint (decision 006): every request made through the HTTP client (lib/api-client.ts) is read
 * from the source as `METHOD /path`, each `${…}` written `{}`, so that a call outside a call folder, or a second file
 * asking for an endpoint another file already asks for, fails here. Both had happened: six endpoints had a call file
 * in each of two features.
 */
const src = path.dirname(fileURLToPath(import.meta.url));
const METHODS: Record<string, string> = {
  get: 'GET',
  post: 'POST',
  put: 'PUT',
  patch: 'PATCH',
  delete: 'DELETE',
  blob: 'GET',
};
/** Where calls live: a feature's own (features/<feature>/api/) and those two features share (lib/api/). */
const CALL_FOLDER = /^(features\/[^/]+\/api|lib\/api)\//;

interface Call {
  file: string;
  /** `GET /paineis/{}/visoes`; null when the path is not written in the call (an address the server gave). */
  endpoint: string | null;
}

function sourceFiles(): string[] {
  return readdirSync(src, { recursive: true, encoding: 'utf8' })
    .map((file) => file.split(path.sep).join('/'))
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file) && !file.startsWith('test/'))
    .filter((file) => file !== 'lib/api-client.ts');
}

function pathOf(node: ts.Expression | undefined): string | null {
  if (node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))) return node.text;
  if (node && ts.isTemplateExpression(node)) {
    return node.head.text + node.templateSpans.map((span) => `{}${span.literal.text}`).join('');
  }
  return null;
}

function callsIn(file: string): Call[] {
  const source = ts.createSourceFile(file, readFileSync(path.join(src, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const calls: Call[] = [];
  const visit = (node: ts.Node) => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      ts.isIdentifier(node.expression.expression) &&
      node.expression.expression.text === 'api' &&
      Object.hasOwn(METHODS, node.expression.name.text)
    ) {
      const route = pathOf(node.arguments[0]);
      calls.push({ file, endpoint: route === null ? null : `${METHODS[node.expression.name.text]} ${route}` });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return calls;
}

const calls = sourceFiles().flatMap(callsIn);

describe('one call file per endpoint', () => {
  it('reads the calls out of the source (the scan itself works)', () => {
    expect(calls).toContainEqual({ file: 'lib/api/get-active-users.ts', endpoint: 'GET /usuarios365/ativos' });
    expect(calls).toContainEqual({ file: 'lib/api/get-saved-views.ts', endpoint: 'GET /paineis/{}/visoes' });
    expect(calls.length).toBeGreaterThan(50);
  });

  it('makes every call from a call folder: features/<feature>/api/ or, shared, lib/api/', () => {
    expect(calls.filter((call) => !CALL_FOLDER.test(call.file)).map((call) => call.file)).toEqual([]);
  });

  it('asks for each endpoint from one file only', () => {
    const filesByEndpoint = new Map<string, Set<string>>();
    for (const { file, endpoint } of calls) {
      if (endpoint !== null) filesByEndpoint.set(endpoint, (filesByEndpoint.get(endpoint) ?? new Set()).add(file));
    }
    const twice = [...filesByEndpoint].filter(([, files]) => files.size > 1).map(([e, files]) => [e, [...files]]);
    expect(Object.fromEntries(twice)).toEqual({});
  });

  it('writes every path in its call, but the export file the server gives the address of', () => {
    expect(calls.filter((call) => call.endpoint === null).map((call) => call.file)).toEqual([
      'features/viewer/api/download-export.ts',
    ]);
  });
});
