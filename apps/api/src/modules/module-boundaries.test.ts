import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The module boundaries are lint rules (eslint.config.js, `apiBoundaries`). These cases run those very rules
 * over small files placed where the rule looks, so a rule that stops catching a crossing import fails here.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
let eslint: ESLint;

beforeAll(async () => {
  const configUrl = pathToFileURL(path.join(root, 'eslint.config.js')).href;
  const { apiBoundaries } = (await import(configUrl)) as { apiBoundaries: Linter.Config[] };
  eslint = new ESLint({
    cwd: root,
    overrideConfigFile: true,
    overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } }, ...apiBoundaries],
  });
});

async function restricted(file: string, from: string): Promise<string[]> {
  const [result] = await eslint.lintText(`import { x } from '${from}';\nexport const y = x;\n`, {
    filePath: path.join(root, 'apps/api/src', file),
  });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('API module boundaries', () => {
  it.each([
    ['modules/panels/panel-access.ts', '../users/users.repository.ts'],
    ['modules/auth/auth.routes.ts', '../panels/panels.routes.ts'],
    ['modules/users/users.service.ts', '../auth/local-accounts.repository.ts'],
    ['modules/panels/panels.routes.ts', '../../modules/classifications/classifications.repository.ts'],
  ])('refuses %s importing %s', async (file, from) => {
    expect(await restricted(file, from)).toEqual([
      expect.stringContaining('Um módulo não importa o repositório nem as rotas de outro'),
    ]);
  });

  it.each([
    ['modules/panels/panel-access.ts', './rls.repository.ts'],
    ['modules/panels/panels.module.ts', './panel-rls.routes.ts'],
    ['modules/auth/auth.routes.ts', '../users/users.service.ts'],
    ['modules/panels/panel-embed.routes.ts', '../../lib/route-schema.ts'],
  ])('lets %s import %s', async (file, from) => {
    expect(await restricted(file, from)).toEqual([]);
  });

  it('keeps plugins to a module’s service, and the base layers off the modules', async () => {
    expect(await restricted('plugins/auth.ts', '../modules/auth/auth.repository.ts')).toHaveLength(1);
    expect(await restricted('plugins/auth.ts', '../modules/auth/sessions.ts')).toEqual([]);
    expect(await restricted('lib/http-error.ts', '../modules/auth/sessions.ts')).toHaveLength(1);
    expect(await restricted('integrations/power-bi/x.ts', '../../modules/panels/panel-access.ts')).toHaveLength(1);
    // The background tasks' runner knows no module: the tasks are listed in plugins/background-tasks.ts.
    expect(await restricted('tasks/task-runner.ts', '../modules/power-bi/freshness.ts')).toHaveLength(1);
  });

  it.each([
    'modules/panels/rls.repository.ts',
    'modules/auth/local-sign-in.ts',
    'modules/subscriptions/subscriptions.ts',
    'modules/users/users.service.ts',
    'modules/panels/panels.module.ts',
  ])('keeps %s to domain failures: only routes answer in HTTP', async (file) => {
    expect(await restricted(file, '../../lib/http-error.ts')).toEqual([
      expect.stringContaining('Só as rotas respondem em HTTP'),
    ]);
    expect(await restricted(file, '../../lib/domain-failure.ts')).toEqual([]);
  });

  it('lets routes answer in HTTP, and still keeps them and repositories to their own module', async () => {
    expect(await restricted('modules/auth/auth.routes.ts', '../../lib/http-error.ts')).toEqual([]);
    expect(await restricted('modules/panels/panel-embed.routes.ts', '../../lib/http-error.ts')).toEqual([]);
    expect(await restricted('modules/panels/rls.repository.ts', '../users/users.repository.ts')).toHaveLength(1);
    expect(await restricted('modules/auth/auth.routes.ts', '../users/users.repository.ts')).toHaveLength(1);
  });

  it('leaves the composition root and the tests free to wire modules', async () => {
    expect(await restricted('app.ts', './modules/panels/panels.routes.ts')).toEqual([]);
    expect(await restricted('demo/load-demo-data.ts', '../modules/users/users.repository.ts')).toEqual([]);
  });
});
