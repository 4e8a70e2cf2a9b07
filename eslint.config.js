// @ts-check
import path from 'node:path';
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The API's module boundaries, exported so a test can prove that a crossing import fails. */
/** ../<other module>/…x.repository.ts or …/modules/<module>/…x.routes.ts */
const otherModulesInternals = {
  regex: '^(\\.\\./[^./][^/]*|.*/modules/[^/]+)/([^/]+/)*[^/]+\\.(repository|routes)(\\.ts)?$',
  message: 'Um módulo não importa o repositório nem as rotas de outro: chame o serviço dele.',
};

/** lib/http-error.ts, from anywhere in a module but its routes. */
const httpErrorOutsideRoutes = {
  regex: '/lib/http-error(\\.ts)?$',
  message: 'Só as rotas respondem em HTTP: um serviço ou repositório lança uma DomainFailure (lib/domain-failure.ts).',
};

export const apiBoundaries = [
  {
    // Services and repositories say what failed in the domain's terms (lib/domain-failure.ts); statuses are the
    // HTTP layer's.
    files: ['apps/api/src/modules/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [otherModulesInternals, httpErrorOutsideRoutes] }] },
  },
  {
    files: ['apps/api/src/modules/**/*.routes.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [otherModulesInternals] }] },
  },
  {
    files: ['apps/api/src/plugins/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '/modules/[^/]+/([^/]+/)*[^/]+\\.(repository|routes)(\\.ts)?$',
              message: 'Um plugin não importa repositórios nem rotas de módulos: chame o serviço do módulo.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/api/src/{lib,db,integrations,config,tasks}/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '/modules/', message: 'As camadas de base não dependem dos módulos.' }] },
      ],
    },
  },
];

/**
 * Where an import lands, as a path inside `root` ('features/panels/api/x.ts'), or null when it lands outside
 * (a package, node_modules). Relative specifiers are resolved from the importing file, however deep; `aliases` maps
 * a specifier's prefix to a folder inside `root`.
 * @param {string} filename @param {string} specifier @param {string} root @param {Record<string, string>} aliases
 */
function landingPath(filename, specifier, root, aliases) {
  const bare = specifier.replace(/[?#].*$/, '');
  let absolute = null;
  if (bare.startsWith('.')) absolute = path.resolve(path.dirname(filename), bare);
  else {
    const alias = Object.keys(aliases).find((prefix) => bare.startsWith(prefix));
    if (alias !== undefined) absolute = path.resolve(root, aliases[alias] ?? '', bare.slice(alias.length));
  }
  if (absolute === null) return null;
  const inside = path.relative(root, absolute);
  return inside.startsWith('..') || path.isAbsolute(inside) ? null : inside.split(path.sep).join('/');
}

/**
 * Whether `file` ('features/panels/x.ts') sits under `pattern` ('features/*', 'lib'); '*' is one folder. Returns the
 * folders the stars stood for, or null.
 * @param {string} file @param {string} pattern @param {string[]} [unlike] folders the stars must not stand for
 */
function under(file, pattern, unlike = []) {
  const segments = file.split('/');
  const parts = pattern.split('/');
  /** @type {string[]} */
  const stars = [];
  for (const [i, part] of parts.entries()) {
    const segment = segments[i];
    if (segment === undefined) return null;
    if (part === '*') {
      if (segment === unlike[stars.length]) return null;
      stars.push(segment);
    } else if (part !== segment) return null;
  }
  return stars;
}

/**
 * import/no-restricted-paths' zones, for the web app's folders (eslint-plugin-import is not a dependency): a file
 * under `target` may not import a file under `from`. A '*' in both stands for one folder, and the two must differ:
 * `{ target: 'features/*', from: 'features/*' }` is one feature importing another.
 * @type {import('eslint').Rule.RuleModule}
 */
const noRestrictedPaths = {
  meta: {
    type: 'problem',
    docs: { description: 'Zones of the source tree that may not import one another, written as paths.' },
    schema: [
      {
        type: 'object',
        properties: {
          root: { type: 'string' },
          aliases: { type: 'object', additionalProperties: { type: 'string' } },
          zones: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                target: { type: 'array', items: { type: 'string' } },
                from: { type: 'array', items: { type: 'string' } },
                message: { type: 'string' },
              },
              required: ['target', 'from', 'message'],
              additionalProperties: false,
            },
          },
        },
        required: ['root', 'zones'],
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    const {
      root,
      aliases = {},
      zones,
    } = /** @type {{ root: string, aliases?: Record<string, string>, zones: { target: string[], from: string[], message: string }[] }} */ (
      context.options[0]
    );
    const relative = path.relative(root, context.filename);
    if (relative.startsWith('..') || path.isAbsolute(relative)) return {};
    const file = relative.split(path.sep).join('/');
    /** @param {import('estree').Node | null | undefined} source */
    function check(source) {
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
      const imported = landingPath(context.filename, source.value, root, aliases);
      if (imported === null) return;
      for (const zone of zones) {
        for (const target of zone.target) {
          const stars = under(file, target);
          if (stars === null) continue;
          if (zone.from.some((from) => under(imported, from, stars) !== null)) {
            context.report({ node: source, message: zone.message });
            return;
          }
        }
      }
    }
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

const webSrc = path.join(import.meta.dirname, 'apps/web/src');
const FEATURE_CROSSING = {
  target: ['features/*'],
  from: ['features/*'],
  message: 'Uma feature não importa outra: componha-as em app/ (rotas passam dados e callbacks como props).',
};
const FEATURE_TO_APP = {
  target: ['features'],
  from: ['app'],
  message: 'Uma feature não importa app/: é app/ que compõe as features.',
};
const SHARED_TO_FEATURE = {
  target: ['components', 'lib', 'config', 'styles'],
  from: ['features', 'app'],
  message: 'Código compartilhado (components, lib, config, styles) não importa features nem app/.',
};
/** @param {(typeof FEATURE_CROSSING)[]} zones */
const webZones = (zones) => [
  'error',
  // No alias is configured today; '@/' (bulletproof-react's) is caught the day one is.
  { root: webSrc, aliases: { '@/': '.' }, zones },
];

/**
 * The web app's boundaries by path, exported so a test can prove that a crossing import fails. A feature has no
 * public entry (no barrel files, decision 006): features reach each other only through app/, which composes them.
 * Tests may import app/ to render the real route table, never another feature.
 * @type {import('eslint').Linter.Config[]}
 */
export const webBoundaries = [
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { web: { rules: { 'no-restricted-paths': noRestrictedPaths } } },
    rules: { 'web/no-restricted-paths': webZones([FEATURE_CROSSING, FEATURE_TO_APP, SHARED_TO_FEATURE]) },
  },
  {
    files: ['apps/web/src/**/*.test.{ts,tsx}'],
    rules: { 'web/no-restricted-paths': webZones([FEATURE_CROSSING, SHARED_TO_FEATURE]) },
  },
];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '.data/**', 'coverage/**', 'apps/api/src/db/migrations/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Fastify route handlers and hooks are async by contract even when they do not await.
      '@typescript-eslint/require-await': 'off',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['apps/api/src/server.ts', 'scripts/**', 'bench/**'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['**/*.test.ts', '**/test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  { files: ['**/*.js', '**/*.mjs'], extends: [tseslint.configs.disableTypeChecked] },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  // API modules own their data: no module imports another module's repository or routes (call its service),
  // and the layers below the modules (plugins, lib, db, integrations, config) import no repository or routes.
  // app.ts, server.ts, demo/ and the tests compose modules and may reach them.
  ...apiBoundaries,
  // Features import neither app/ nor each other (app/ composes them), and shared code imports no feature and not app/.
  ...webBoundaries,
  prettier,
);
