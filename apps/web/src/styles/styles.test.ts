import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as sass from 'sass';
import { describe, expect, it } from 'vitest';

const styles = path.dirname(fileURLToPath(import.meta.url));
const src = path.resolve(styles, '..');
const require = createRequire(import.meta.url);

/** Marks of state that only parts of Bootstrap the app does not use style (`collapsed`: the accordion's buttons). */
const UNSTYLED_HERE = new Set(['collapsed']);

/** Every class a stylesheet defines (and a few words of its data URLs, which do no harm here). */
const classesIn = (css: string) => new Set(Array.from(css.matchAll(/\.(-?[_a-zA-Z][\w-]*)/g), (m) => m[1]!));

/** The string literals in a piece of code, template literals without their ${...} parts. */
const literals = (code: string) =>
  Array.from(code.matchAll(/'([^'\n]*)'|"([^"\n]*)"|`([^`]*)`/g), (m) =>
    (m[1] ?? m[2] ?? m[3] ?? '').replace(/\$\{[^}]*\}/g, ' '),
  );

/** The code of a JSX attribute's value from `start` (just after `name=`): a string, or a {...} expression. */
function attributeValue(code: string, start: number): string {
  if (code[start] !== '{') return code.slice(start, code.indexOf(code[start]!, start + 1) + 1);
  let depth = 0;
  for (let i = start; i < code.length; i += 1) {
    if (code[i] === '{') depth += 1;
    else if (code[i] === '}' && --depth === 0) return code.slice(start, i + 1);
  }
  return '';
}

/**
 * The classes the app's sources name: in className attributes and in constants named …Class…, and those react-bootstrap
 * derives from the bg and text props (Badge) and from a Spinner's variant.
 */
function classesUsed(): Map<string, string> {
  const used = new Map<string, string>();
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'test' ? [] : walk(file);
      return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
    });
  for (const file of walk(src)) {
    const code = readFileSync(file, 'utf8');
    const add = (text: string, prefix = '') => {
      for (const word of text.split(/\s+/)) {
        if (/^[a-z][a-z0-9-]*$/.test(word)) used.set(prefix + word, path.relative(src, file));
      }
    };
    for (const m of code.matchAll(/\bclassName=/g)) {
      for (const text of literals(attributeValue(code, m.index + m[0].length))) add(text);
    }
    for (const m of code.matchAll(/\bconst \w*[cC]lass\w* = ([^;]*);/g)) for (const text of literals(m[1]!)) add(text);
    for (const m of code.matchAll(/\s(bg|text)=/g)) {
      for (const text of literals(attributeValue(code, m.index + m[0].length))) add(text, `${m[1]}-`);
    }
    for (const m of code.matchAll(/<Spinner\b[^>]*\svariant=/g)) {
      for (const text of literals(attributeValue(code, m.index + m[0].length))) add(text, 'text-');
    }
  }
  return used;
}

describe('the stylesheet: Bootstrap, only the parts in use (bootstrap.scss)', () => {
  it('builds every Bootstrap class the app uses', { timeout: 120_000 }, () => {
    const built = classesIn(
      sass.compile(path.join(styles, 'bootstrap.scss'), {
        loadPaths: [path.resolve(path.dirname(require.resolve('bootstrap/package.json')), '..')],
        quietDeps: true,
        silenceDeprecations: ['import', 'global-builtin', 'color-functions', 'if-function'],
      }).css,
    );
    const bootstrap = classesIn(readFileSync(require.resolve('bootstrap/dist/css/bootstrap.css'), 'utf8'));
    const used = classesUsed();
    // The check sees what it should: the sources do use Bootstrap classes of all kinds.
    for (const known of ['d-flex', 'btn', 'navbar-expand-md', 'text-body-secondary', 'bg-info-subtle', 'col-sm-3']) {
      expect(used.has(known), known).toBe(true);
    }
    const missing = [...used].filter(([name]) => bootstrap.has(name) && !built.has(name) && !UNSTYLED_HERE.has(name));
    expect(missing.map(([name, file]) => `${name} (${file})`)).toEqual([]);
  });
});
