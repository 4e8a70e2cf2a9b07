import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The web app's boundaries are lint rules (eslint.config.js, `webBoundaries`). These cases run those very rules over
 * small files placed where the rule looks, so a rule that stops catching a crossing import fails here.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
let eslint: ESLint;

beforeAll(async () => {
  const configUrl = pathToFileURL(path.join(root, 'eslint.config.js')).href;
  const { webBoundaries } = (await import(configUrl)) as { webBoundaries: Linter.Config[] };
  eslint = new ESLint({
    cwd: root,
    overrideConfigFile: true,
    overrideConfig: [{ files: ['**/*.{ts,tsx}'], languageOptions: { parser: tseslint.parser } }, ...webBoundaries],
  });
});

/** The boundary messages for `source` placed at apps/web/src/`file`. */
async function messages(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path.join(root, 'apps/web/src', file) });
  return result!.messages.map((m) =>
    m.ruleId === 'web/no-restricted-paths' ? m.message : `${m.ruleId}: ${m.message}`,
  );
}

const importing = (file: string, from: string) => messages(file, `import { x } from '${from}';\nexport const y = x;\n`);

const FEATURE_CROSSING =
  'Uma feature não importa outra: componha-as em app/ (rotas passam dados e callbacks como props).';
const FEATURE_TO_APP = 'Uma feature não importa app/: é app/ que compõe as features.';
const SHARED_TO_FEATURE = 'Código compartilhado (components, lib, config, styles) não importa features nem app/.';

describe('web boundaries: a feature does not import another', () => {
  it.each([
    ['features/panels/components/panel-list-page.tsx', '../../viewer/api/get-panel.ts'],
    ['features/panels/components/panel-list-page.tsx', '../../../features/viewer/api/get-panel.ts'],
    ['features/viewer/components/deeper/still-deeper/x.tsx', '../../../../auth/auth-context.ts'],
    ['features/panels/api/get-favourites.ts', '../../classifications'],
    // A feature the old regex did not list by name.
    ['features/panels/utils/x.ts', '../../groups/api/get-groups.ts'],
    ['features/usage/components/usage-page.tsx', '@/features/audit/api/get-audit.ts'],
  ])('refuses %s importing %s', async (file, from) => {
    expect(await importing(file, from)).toEqual([FEATURE_CROSSING]);
  });

  it('catches re-exports and lazy imports as well', async () => {
    const file = 'features/panels/components/x.tsx';
    expect(await messages(file, "export { useAuth } from '../../auth/auth-context.ts';\n")).toEqual([FEATURE_CROSSING]);
    expect(await messages(file, "export * from '../../auth/auth-context.ts';\n")).toEqual([FEATURE_CROSSING]);
    expect(
      await messages(file, "export const page = () => import('../../viewer/components/viewer-page.tsx');\n"),
    ).toEqual([FEATURE_CROSSING]);
  });

  it('refuses a test that reaches into another feature', async () => {
    expect(await importing('features/viewer/components/x.test.tsx', '../../panels/utils/reorder.ts')).toEqual([
      FEATURE_CROSSING,
    ]);
  });
});

describe('web boundaries: a feature does not import app/', () => {
  it.each([
    ['features/panels/components/panel-list-page.tsx', '../../../app/routes.tsx'],
    ['features/auth/auth-provider.tsx', '../../app/app-layout.tsx'],
    ['features/viewer/hooks/use-export.ts', '@/app/first-screen.ts'],
  ])('refuses %s importing %s', async (file, from) => {
    expect(await importing(file, from)).toEqual([FEATURE_TO_APP]);
  });

  it("lets a feature's tests render the app's real route table", async () => {
    expect(await importing('features/panels/components/panel-list-page.test.tsx', '../../../app/root.tsx')).toEqual([]);
  });
});

describe('web boundaries: shared code imports no feature and not app/', () => {
  it.each([
    ['components/confirm-dialog.tsx', '../features/panels/api/delete-panel.ts'],
    ['lib/api-client.ts', '../features/auth/auth-context.ts'],
    // A call two features share (lib/api/) knows neither of them.
    ['lib/api/get-groups.ts', '../../features/panel-access/utils/picker-groups.ts'],
    ['lib/api/get-saved-views.ts', '@/features/viewer/api/get-saved-view.ts'],
    ['lib/query-keys.ts', '../app/routes.tsx'],
    ['config/paths.ts', '@/features/viewer/api/get-panel.ts'],
    ['styles/x.ts', '../features/usage/utils/csv.ts'],
    ['components/nested/x.tsx', '../../app/app-layout.tsx'],
  ])('refuses %s importing %s', async (file, from) => {
    expect(await importing(file, from)).toEqual([SHARED_TO_FEATURE]);
  });
});

describe('web boundaries: what stays allowed', () => {
  it.each([
    ['features/panels/components/panel-list-page.tsx', './panel-row.tsx'],
    ['features/panels/components/panel-list-page.tsx', '../hooks/use-panel-reorder.ts'],
    ['features/panels/hooks/use-delete-confirmation.ts', '../../panels/api/delete-panel.ts'],
    ['features/panels/components/panel-list-page.tsx', '../../../lib/api-client.ts'],
    ['features/panel-access/components/link-users-modal.tsx', '../../../lib/api/get-active-users.ts'],
    ['app/routes/panel-list-route.tsx', '../../lib/api/get-groups.ts'],
    ['features/panels/components/panel-list-page.tsx', '../../../components/confirm-dialog.tsx'],
    ['features/panels/components/panel-list-page.tsx', '@/config/paths.ts'],
    ['features/panels/components/panel-list-page.tsx', '@paineis/contract/panels'],
    ['features/panels/components/panel-list-page.tsx', 'react'],
    ['features/viewer/components/report-area.test.tsx', '../../../test/data-generators.ts'],
    ['app/routes/panel-list-route.tsx', '../../features/panels/components/panel-list-page.tsx'],
    ['app/first-screen.ts', '../features/viewer/api/fetch-panel.ts'],
    ['test/render-app.tsx', '../app/routes.tsx'],
    ['components/confirm-dialog.tsx', '../lib/format.ts'],
    ['main.tsx', './app/start.tsx'],
  ])('lets %s import %s', async (file, from) => {
    expect(await importing(file, from)).toEqual([]);
  });
});
