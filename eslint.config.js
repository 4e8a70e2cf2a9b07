// @ts-check
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The API's module boundaries, exported so a test can prove that a crossing import fails. */
export const apiBoundaries = [
  {
    files: ['apps/api/src/modules/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // ../<other module>/…x.repository.ts or …/modules/<module>/…x.routes.ts
              regex: '^(\\.\\./[^./][^/]*|.*/modules/[^/]+)/([^/]+/)*[^/]+\\.(repository|routes)(\\.ts)?$',
              message: 'Um módulo não importa o repositório nem as rotas de outro: chame o serviço dele.',
            },
          ],
        },
      ],
    },
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
    files: ['apps/api/src/{lib,db,integrations,config}/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '/modules/', message: 'As camadas de base não dependem dos módulos.' }] },
      ],
    },
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
  // Features do not import each other (only app/ composes them), and shared code imports no feature.
  {
    files: ['apps/web/src/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(auth|panels|panel-access|classifications|viewer|usage|audit)/',
              message: 'Uma feature não importa outra: componha-as em app/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/src/{components,lib,config,styles}/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: 'features/', message: 'Código compartilhado não importa features.' }] },
      ],
    },
  },
  prettier,
);
