import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * No file under src imports itself back, through any chain of imports: a circle makes what loads first depend on
 * the order of imports, and says that two files are one design split in two. Type-only imports count too: they
 * leave no trace at run time, but `import type { X } from '../app.ts'` is still a module leaning on the composition
 * root, which nothing but server.ts and the tests may import. Imports are resolved by TypeScript itself, with the
 * API's own compiler options.
 */
const src = path.dirname(fileURLToPath(import.meta.url));
const tsconfig = ts.getParsedCommandLineOfConfigFile(
  path.join(src, '../tsconfig.json'),
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  },
)!;

/** Each file under `root` and the files under `root` it imports (import, export … from, import()). */
function importGraph(root: string, options: ts.CompilerOptions): Map<string, string[]> {
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => path.join(root, file));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles
      .map(({ fileName }) => ts.resolveModuleName(fileName, file, options, ts.sys).resolvedModule?.resolvedFileName)
      .filter((target): target is string => target !== undefined && target.startsWith(root + path.sep))
      .map((target) => path.normalize(target));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/**
 * The circles of a graph, one per group of files that reach each other (Tarjan's strongly connected components),
 * each shown as one path from a file back to itself.
 */
function circles(graph: Map<string, string[]>): string[][] {
  const order = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    order.set(file, order.size);
    lowest.set(file, order.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!order.has(next)) {
        visit(next);
        lowest.set(file, Math.min(lowest.get(file)!, lowest.get(next)!));
      } else if (onStack.has(next)) lowest.set(file, Math.min(lowest.get(file)!, order.get(next)!));
    }
    if (lowest.get(file) !== order.get(file)) return;
    const group = new Set<string>();
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.add(member);
    } while (member !== file);
    if (group.size > 1 || graph.get(file)?.includes(file)) found.push(pathBack(graph, file, group));
  };
  for (const file of graph.keys()) if (!order.has(file)) visit(file);
  return found;
}

/** The shortest path from `start` back to itself inside `group` (breadth first). */
function pathBack(graph: Map<string, string[]>, start: string, group: Set<string>): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const next of graph.get(file) ?? []) {
      if (!group.has(next)) continue;
      if (next === start) {
        const way = [start];
        for (let at: string | undefined = file; at !== undefined && at !== start; at = cameFrom.get(at)) {
          way.splice(1, 0, at);
        }
        return [...way, start];
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, file);
        queue.push(next);
      }
    }
  }
  return [start, start];
}

describe('imports under apps/api/src', () => {
  it('form no circle', () => {
    const shown = circles(importGraph(src, tsconfig.options)).map((circle) =>
      circle.map((file) => path.relative(src, file).split(path.sep).join('/')).join(' → '),
    );
    expect(shown).toEqual([]);
  });

  it('would show a circle, type-only imports included', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts', 'd.ts']],
      ['d.ts', []],
      ['e.ts', ['e.ts']],
    ]);
    expect(circles(graph)).toEqual([
      ['a.ts', 'b.ts', 'c.ts', 'a.ts'],
      ['e.ts', 'e.ts'],
    ]);
  });

  it('reads type-only imports, re-exports and import() as imports', () => {
    const { importedFiles } = ts.preProcessFile(
      "import type { A } from './a.ts';\nexport { b } from './b.ts';\nconst c = await import('./c.ts');\n",
      true,
      true,
    );
    expect(importedFiles.map((f) => f.fileName)).toEqual(['./a.ts', './b.ts', './c.ts']);
  });
});
