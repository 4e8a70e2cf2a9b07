import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfigError, loadConfig, REPO_ROOT } from './env.ts';

const SECRET = 'um-segredo-de-producao-com-mais-de-32-caracteres';
const AZURE = {
  AZURE_TENANT_ID: '00000000-0000-4000-8000-000000000001',
  AZURE_CLIENT_ID: '00000000-0000-4000-8000-000000000002',
  AZURE_CLIENT_SECRET: 'segredo-do-aplicativo',
};

/** The ConfigError loadConfig throws for `env`, or a failure if it does not throw one. */
function configError(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`loadConfig aceitou uma configuração inválida: ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  let dataDir: string;

  beforeEach(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'paineis-env-'));
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    rmSync(dataDir, { recursive: true, force: true });
  });

  describe('defaults', () => {
    it('with nothing set: port 3000, PGlite under DATA_DIR, demo mode on this machine only', () => {
      const config = loadConfig({ DATA_DIR: dataDir });
      expect(config.port).toBe(3000);
      expect(config.env).toBe('production');
      expect(config.demoMode).toBe(true);
      expect(config.host).toBe('127.0.0.1');
      expect(config.microsoft).toBeNull();
      expect(config.dataDir).toBe(dataDir);
      expect(config.database).toEqual({ kind: 'pglite', dataDir: path.join(dataDir, 'pglite') });
      expect(config.adminUsers).toEqual([]);
      expect(config.rlsUsername).toBe('upn');
      expect(config.logLevel).toBe('info');
      expect(config.trustProxy).toBe(false);
      expect(config.jwt.issuer).toBe('paineis');
      expect(config.jwt.audience).toBe('paineis-web');
      expect(config.jwt.ttlSeconds).toBe(8 * 3600);
      expect(config.webDistDir).toBe(path.join(REPO_ROOT, 'apps/web/dist'));
    });

    it('the default DATA_DIR is .data at the repository root', () => {
      const config = loadConfig({ JWT_SECRET: SECRET });
      expect(config.dataDir).toBe(path.join(REPO_ROOT, '.data'));
      expect(config.database).toEqual({ kind: 'pglite', dataDir: path.join(REPO_ROOT, '.data', 'pglite') });
    });

    it('demo mode without JWT_SECRET keeps a random secret in DATA_DIR, the same across restarts', () => {
      const first = loadConfig({ DATA_DIR: dataDir });
      expect(first.jwt.secret.length).toBeGreaterThanOrEqual(32);
      const file = path.join(dataDir, 'jwt-secret');
      expect(readFileSync(file, 'utf8').trim()).toBe(first.jwt.secret);
      expect(loadConfig({ DATA_DIR: dataDir }).jwt.secret).toBe(first.jwt.secret);
      // Another data folder, another secret.
      const other = mkdtempSync(path.join(tmpdir(), 'paineis-env-'));
      try {
        expect(loadConfig({ DATA_DIR: other }).jwt.secret).not.toBe(first.jwt.secret);
      } finally {
        rmSync(other, { recursive: true, force: true });
      }
    });

    it('JWT_SECRET, when set, is used as is and nothing is written', () => {
      const config = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: SECRET });
      expect(config.jwt.secret).toBe(SECRET);
      expect(existsSync(path.join(dataDir, 'jwt-secret'))).toBe(false);
    });

    it('outside demo mode it listens on every interface; HOST overrides either way', () => {
      const base = { DATA_DIR: dataDir, JWT_SECRET: SECRET };
      expect(loadConfig({ ...base, DEMO_MODE: 'false' }).host).toBe('0.0.0.0');
      expect(loadConfig({ ...base, DEMO_MODE: 'true' }).host).toBe('127.0.0.1');
      expect(loadConfig({ ...base, DEMO_MODE: 'false', HOST: '10.0.0.5' }).host).toBe('10.0.0.5');
      expect(loadConfig({ ...base, DEMO_MODE: 'true', HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    });

    it('empty values count as unset', () => {
      const config = loadConfig({
        DATA_DIR: dataDir,
        PORT: '',
        DATABASE_URL: '',
        JWT_SECRET: SECRET,
        AZURE_TENANT_ID: '',
      });
      expect(config.port).toBe(3000);
      expect(config.database.kind).toBe('pglite');
      expect(config.demoMode).toBe(true);
    });

    it('reads only the object it is given, not process.env', () => {
      vi.stubEnv('PORT', '4321');
      vi.stubEnv('DATABASE_URL', 'postgres://localhost/outro');
      const config = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: SECRET });
      expect(config.port).toBe(3000);
      expect(config.database.kind).toBe('pglite');
    });

    it('reads the other settings', () => {
      const config = loadConfig({
        DATA_DIR: dataDir,
        JWT_SECRET: SECRET,
        PORT: '8080',
        LOG_LEVEL: 'warn',
        JWT_ISSUER: 'emissor',
        JWT_AUDIENCE: 'publico',
        JWT_TTL_HOURS: '1.5',
        TRUST_PROXY: 'true',
        NODE_ENV: 'development',
      });
      expect(config).toMatchObject({
        port: 8080,
        logLevel: 'warn',
        trustProxy: true,
        env: 'development',
        jwt: { secret: SECRET, issuer: 'emissor', audience: 'publico', ttlSeconds: 5400 },
      });
    });
  });

  describe('Power BI background reads', () => {
    it('read the last refreshes every 15 minutes (2 in the demo) and check the reports hourly by default; 0 turns a timer off', () => {
      expect(loadConfig({ DATA_DIR: dataDir, JWT_SECRET: SECRET, DEMO_MODE: 'false' }).powerBi).toEqual({
        refreshIntervalMinutes: 15,
        healthIntervalMinutes: 60,
      });
      // The demo's stand-in refreshes a dataset every few minutes: the demo reads them that often.
      expect(loadConfig({ DATA_DIR: dataDir, JWT_SECRET: SECRET }).powerBi.refreshIntervalMinutes).toBe(2);
      expect(
        loadConfig({ DATA_DIR: dataDir, JWT_SECRET: SECRET, DEMO_MODE: 'false' }).subscriptions.refreshWatchMinutes,
      ).toBe(5);
      expect(loadConfig({ DATA_DIR: dataDir, JWT_SECRET: SECRET }).subscriptions.refreshWatchMinutes).toBe(1);
      expect(
        loadConfig({ DATA_DIR: dataDir, JWT_SECRET: SECRET, SUBSCRIPTION_REFRESH_WATCH_MINUTES: '10' }).subscriptions
          .refreshWatchMinutes,
      ).toBe(10);
      const set = loadConfig({
        DATA_DIR: dataDir,
        JWT_SECRET: SECRET,
        POWER_BI_REFRESH_INTERVAL_MINUTES: '0',
        POWER_BI_HEALTH_INTERVAL_MINUTES: '5',
      });
      expect(set.powerBi).toEqual({ refreshIntervalMinutes: 0, healthIntervalMinutes: 5 });
    });

    it.each(['-1', 'abc', '20000'])('an interval of %s → ConfigError naming each', (minutes) => {
      const error = configError({
        DATA_DIR: dataDir,
        JWT_SECRET: SECRET,
        POWER_BI_REFRESH_INTERVAL_MINUTES: minutes,
        POWER_BI_HEALTH_INTERVAL_MINUTES: minutes,
      });
      expect(error.message).toContain('POWER_BI_REFRESH_INTERVAL_MINUTES');
      expect(error.message).toContain('POWER_BI_HEALTH_INTERVAL_MINUTES');
    });
  });

  describe('the Power BI capacity (issue 40)', () => {
    const A1 =
      '/subscriptions/0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d/resourceGroups/rg-paineis/providers/Microsoft.PowerBIDedicated/capacities/paineisa1';

    it('is null without POWER_BI_CAPACITY_ID', () => {
      expect(loadConfig({ DATA_DIR: dataDir, JWT_SECRET: SECRET }).capacity).toBeNull();
    });

    it('reads the resource id, and Azure Resource Manager at its public address unless told another', () => {
      expect(loadConfig({ DATA_DIR: dataDir, JWT_SECRET: SECRET, POWER_BI_CAPACITY_ID: A1 }).capacity).toEqual({
        resource: {
          subscriptionId: '0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d',
          resourceGroup: 'rg-paineis',
          name: 'paineisa1',
          kind: 'embedded',
          id: A1,
        },
        managementUrl: 'https://management.azure.com',
      });
      const fabric = loadConfig({
        DATA_DIR: dataDir,
        JWT_SECRET: SECRET,
        POWER_BI_CAPACITY_ID: '/subscriptions/s/resourceGroups/g/providers/microsoft.fabric/capacities/paineisf2',
        AZURE_MANAGEMENT_URL: 'https://management.usgovcloudapi.net/',
      }).capacity;
      expect(fabric?.resource).toMatchObject({ kind: 'fabric', name: 'paineisf2' });
      expect(fabric?.managementUrl).toBe('https://management.usgovcloudapi.net');
    });

    it('refuses an id that is not a capacity’s, and a management address that is not a URL, in Portuguese', () => {
      const error = configError({
        DATA_DIR: dataDir,
        JWT_SECRET: SECRET,
        POWER_BI_CAPACITY_ID: '/subscriptions/s/resourceGroups/g/providers/Microsoft.Web/sites/portal',
        AZURE_MANAGEMENT_URL: 'management.azure.com',
      });
      expect(error.message).toContain(
        'POWER_BI_CAPACITY_ID: O id da capacidade deve ser o id de recurso do Azure: /subscriptions/{assinatura}/resourceGroups/{grupo}/providers/Microsoft.PowerBIDedicated/capacities/{nome}',
      );
      expect(error.message).toContain('AZURE_MANAGEMENT_URL: deve ser uma URL http:// ou https://');
    });
  });

  describe('database', () => {
    it('DATABASE_URL switches to PostgreSQL', () => {
      for (const url of ['postgres://u:p@db:5432/paineis', 'postgresql://db/paineis']) {
        const config = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: SECRET, DEMO_MODE: 'false', DATABASE_URL: url });
        expect(config.database).toEqual({ kind: 'postgres', url, poolSize: 10 });
      }
      const sized = loadConfig({
        DATA_DIR: dataDir,
        JWT_SECRET: SECRET,
        DEMO_MODE: 'false',
        DATABASE_URL: 'postgres://db/p',
        DATABASE_POOL_SIZE: '25',
      });
      expect(sized.database).toEqual({ kind: 'postgres', url: 'postgres://db/p', poolSize: 25 });
    });

    it.each(['mysql://db/paineis', 'sqlite:///tmp/x.db', 'db:5432/paineis'])(
      'DATABASE_URL %s → ConfigError naming it',
      (url) => {
        const error = configError({ DATA_DIR: dataDir, JWT_SECRET: SECRET, DATABASE_URL: url });
        expect(error.message).toContain('DATABASE_URL');
        expect(error.problems.some((p) => p.startsWith('DATABASE_URL'))).toBe(true);
      },
    );

    it('DATABASE_POOL_SIZE out of range → ConfigError', () => {
      expect(configError({ DATA_DIR: dataDir, JWT_SECRET: SECRET, DATABASE_POOL_SIZE: '0' }).message).toContain(
        'DATABASE_POOL_SIZE',
      );
    });
  });

  describe('invalid values', () => {
    it.each(['abc', '-1', '65536', '80.5'])('PORT %s → ConfigError naming PORT', (port) => {
      const error = configError({ DATA_DIR: dataDir, JWT_SECRET: SECRET, PORT: port });
      expect(error.message).toContain('PORT');
    });

    it('an unknown NODE_ENV, LOG_LEVEL or flag value → ConfigError naming each', () => {
      const error = configError({
        DATA_DIR: dataDir,
        JWT_SECRET: SECRET,
        NODE_ENV: 'staging',
        LOG_LEVEL: 'verbose',
        DEMO_MODE: 'talvez',
      });
      for (const name of ['NODE_ENV', 'LOG_LEVEL', 'DEMO_MODE']) expect(error.message).toContain(name);
    });

    it('a short JWT_SECRET → ConfigError naming it', () => {
      const error = configError({ DATA_DIR: dataDir, JWT_SECRET: 'curto-demais' });
      expect(error.message).toContain('JWT_SECRET');
      expect(error.message).toContain('32');
    });
  });

  describe('Microsoft configuration and demo mode', () => {
    it.each([
      ['only the tenant', { AZURE_TENANT_ID: AZURE.AZURE_TENANT_ID }],
      ['tenant and client', { AZURE_TENANT_ID: AZURE.AZURE_TENANT_ID, AZURE_CLIENT_ID: AZURE.AZURE_CLIENT_ID }],
      ['only the secret', { AZURE_CLIENT_SECRET: AZURE.AZURE_CLIENT_SECRET }],
    ])('partial Azure configuration (%s) → ConfigError', (_name, azure) => {
      const error = configError({ DATA_DIR: dataDir, JWT_SECRET: SECRET, ...azure });
      expect(error.message).toContain('AZURE_TENANT_ID');
      expect(error.message).toContain('AZURE_CLIENT_SECRET');
    });

    it('Azure configuration with DEMO_MODE=true → ConfigError', () => {
      const error = configError({ DATA_DIR: dataDir, JWT_SECRET: SECRET, ...AZURE, DEMO_MODE: 'true' });
      expect(error.message).toContain('DEMO_MODE');
    });

    it('Azure configuration set → demo mode off, Microsoft services on', () => {
      const config = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: SECRET, ...AZURE });
      expect(config.demoMode).toBe(false);
      expect(config.host).toBe('0.0.0.0');
      expect(config.microsoft).toEqual({
        tenantId: AZURE.AZURE_TENANT_ID,
        clientId: AZURE.AZURE_CLIENT_ID,
        clientSecret: AZURE.AZURE_CLIENT_SECRET,
        authorityHost: 'https://login.microsoftonline.com',
        graphUrl: 'https://graph.microsoft.com',
        powerBiApiUrl: 'https://api.powerbi.com',
      });
      expect(loadConfig({ DATA_DIR: dataDir, JWT_SECRET: SECRET, ...AZURE, DEMO_MODE: 'false' }).demoMode).toBe(false);
    });

    it('Microsoft hosts can point elsewhere (sovereign clouds, stand-ins), without a trailing slash', () => {
      const config = loadConfig({
        DATA_DIR: dataDir,
        JWT_SECRET: SECRET,
        ...AZURE,
        AZURE_AUTHORITY_HOST: 'https://login.microsoftonline.us/',
        GRAPH_API_URL: 'https://graph.microsoft.us',
      });
      expect(config.microsoft).toMatchObject({
        authorityHost: 'https://login.microsoftonline.us',
        graphUrl: 'https://graph.microsoft.us',
      });
      expect(
        configError({ DATA_DIR: dataDir, JWT_SECRET: SECRET, ...AZURE, GRAPH_API_URL: 'ftp://x' }).message,
      ).toContain('GRAPH_API_URL');
    });

    it('refuses a bootstrap admin that the sign-in would refuse: control characters, lone surrogates', () => {
      const base = { DATA_DIR: dataDir, JWT_SECRET: SECRET };
      const bad = configError({ ...base, PORTAL_ADMIN_USERNAME: 'admin\tti', PORTAL_ADMIN_PASSWORD: 'senha-longa' });
      expect(bad.message).toMatch(/PORTAL_ADMIN_USERNAME.*caractere de controle \(U\+0009\)/);
      expect(
        configError({ ...base, PORTAL_ADMIN_USERNAME: 'admin.ti', PORTAL_ADMIN_PASSWORD: 'senha\ud800longa' }).message,
      ).toContain('PORTAL_ADMIN_PASSWORD');
    });

    it('the bootstrap admin needs both username and password, and a password of 8 or more characters', () => {
      const base = { DATA_DIR: dataDir, JWT_SECRET: SECRET };
      expect(loadConfig(base).bootstrapAdmin).toBeNull();
      expect(
        configError({ ...base, PORTAL_ADMIN_USERNAME: 'ti', PORTAL_ADMIN_PASSWORD: '12345678' }).message,
      ).toContain('PORTAL_ADMIN_USERNAME');
      expect(configError({ ...base, PORTAL_ADMIN_USERNAME: 'admin.ti' }).message).toContain('PORTAL_ADMIN_PASSWORD');
      expect(
        configError({ ...base, PORTAL_ADMIN_USERNAME: 'admin.ti', PORTAL_ADMIN_PASSWORD: 'curta' }).message,
      ).toContain('PORTAL_ADMIN_PASSWORD');
      expect(
        loadConfig({
          ...base,
          PORTAL_ADMIN_USERNAME: 'admin.ti',
          PORTAL_ADMIN_PASSWORD: 'senha-longa',
          PORTAL_ADMIN_EMAIL: 'TI@Empresa.com.br',
        }).bootstrapAdmin,
      ).toEqual({ username: 'admin.ti', password: 'senha-longa', email: 'ti@empresa.com.br' });
    });

    it('Azure configuration in production without JWT_SECRET → ConfigError naming JWT_SECRET', () => {
      const error = configError({ DATA_DIR: dataDir, NODE_ENV: 'production', ...AZURE });
      expect(error.message).toContain('JWT_SECRET');
      expect(existsSync(path.join(dataDir, 'jwt-secret'))).toBe(false);
    });

    it('production, DEMO_MODE=false, no JWT_SECRET → ConfigError naming JWT_SECRET, and no secret is made up', () => {
      const error = configError({ DATA_DIR: dataDir, NODE_ENV: 'production', DEMO_MODE: 'false' });
      expect(error.problems).toHaveLength(1);
      expect(error.problems[0]).toMatch(/^JWT_SECRET/);
      expect(existsSync(path.join(dataDir, 'jwt-secret'))).toBe(false);
    });

    it('every problem is reported at once', () => {
      const error = configError({
        DATA_DIR: dataDir,
        NODE_ENV: 'production',
        DEMO_MODE: 'false',
        AZURE_TENANT_ID: AZURE.AZURE_TENANT_ID,
      });
      expect(error.problems).toHaveLength(2);
      expect(error.problems.some((p) => p.includes('AZURE_CLIENT_SECRET'))).toBe(true);
      expect(error.problems.some((p) => p.startsWith('JWT_SECRET'))).toBe(true);
    });

    describe('demo mode where a deployment is expected (docs/SECURITY.md)', () => {
      const REFUSAL = (where: string) =>
        `DEMO_MODE: sem AZURE_TENANT_ID, AZURE_CLIENT_ID e AZURE_CLIENT_SECRET, o portal rodaria em modo demonstração mesmo ${where}: com dados fictícios e um administrador de demonstração público (demo.admin, senha "demo"). Para o portal de verdade, configure o Microsoft (AZURE_*), ou defina DEMO_MODE=false para usá-lo só com contas locais; para querer mesmo a demonstração, defina DEMO_MODE=true`;
      const POSTGRES = 'postgres://paineis:senha@db.interno:5432/paineis';

      it.each([
        ['NODE_ENV=production', { NODE_ENV: 'production' }, 'com NODE_ENV=production'],
        ['a DATABASE_URL', { DATABASE_URL: POSTGRES }, 'num servidor PostgreSQL (DATABASE_URL)'],
        [
          'both',
          { NODE_ENV: 'production', DATABASE_URL: POSTGRES },
          'com NODE_ENV=production e num servidor PostgreSQL (DATABASE_URL)',
        ],
      ])('without Microsoft settings, with %s and no DEMO_MODE → ConfigError saying why', (_, env, where) => {
        const error = configError({ DATA_DIR: dataDir, ...env });
        // The one problem: no JWT_SECRET is asked for, nor made up and written, for a start that is refused.
        expect(error.problems).toEqual([REFUSAL(where)]);
        expect(existsSync(path.join(dataDir, 'jwt-secret'))).toBe(false);
      });

      it('DEMO_MODE=true said outright starts the demo there', () => {
        const config = loadConfig({
          DATA_DIR: dataDir,
          NODE_ENV: 'production',
          DATABASE_URL: POSTGRES,
          DEMO_MODE: 'true',
        });
        expect(config.demoMode).toBe(true);
        expect(config.database.kind).toBe('postgres');
      });

      it('NODE_ENV unset (npm start on a fresh clone), or another one, on PGlite: the demo, as before', () => {
        expect(loadConfig({ DATA_DIR: dataDir }).demoMode).toBe(true);
        expect(loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'development' }).demoMode).toBe(true);
        expect(loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'test' }).demoMode).toBe(true);
      });

      it('DEMO_MODE=false or the Microsoft settings: no demo, nothing to refuse', () => {
        const base = { DATA_DIR: dataDir, JWT_SECRET: SECRET, NODE_ENV: 'production', DATABASE_URL: POSTGRES };
        expect(loadConfig({ ...base, DEMO_MODE: 'false' }).demoMode).toBe(false);
        expect(loadConfig({ ...base, ...AZURE }).demoMode).toBe(false);
      });
    });

    it.each([
      ['true', true],
      ['1', true],
      ['yes', true],
      ['false', false],
      ['0', false],
      ['no', false],
    ])('DEMO_MODE=%s → %s', (value, expected) => {
      expect(loadConfig({ DATA_DIR: dataDir, JWT_SECRET: SECRET, DEMO_MODE: value }).demoMode).toBe(expected);
    });
  });

  describe('ADMIN_USERS', () => {
    it('takes object ids and UPNs, split on commas, semicolons and spaces, trimmed and lower-cased', () => {
      const config = loadConfig({
        DATA_DIR: dataDir,
        JWT_SECRET: SECRET,
        ADMIN_USERS:
          ' 0A1B2C3D-0000-4000-8000-00000000ABCD, Ana.Silva@Empresa.com.br;bruno@empresa.onmicrosoft.com\n  e7f8a9b0-1111-4222-8333-444455556666 ,',
      });
      expect(config.adminUsers).toEqual([
        '0a1b2c3d-0000-4000-8000-00000000abcd',
        'ana.silva@empresa.com.br',
        'bruno@empresa.onmicrosoft.com',
        'e7f8a9b0-1111-4222-8333-444455556666',
      ]);
    });

    it('an entry that is neither an object id nor a UPN → ConfigError naming ADMIN_USERS and the value', () => {
      const error = configError({
        DATA_DIR: dataDir,
        JWT_SECRET: SECRET,
        ADMIN_USERS: 'ana@empresa.com.br, ana.silva',
      });
      expect(error.problems).toEqual([
        "ADMIN_USERS.1: 'ana.silva' não é um id de objeto (GUID) nem um nome principal de usuário (UPN, como ana@empresa.com.br)",
      ]);
    });
  });

  describe('ADMIN_EMAILS', () => {
    it('is refused at start, naming ADMIN_USERS, which replaces it', () => {
      const error = configError({ DATA_DIR: dataDir, JWT_SECRET: SECRET, ADMIN_EMAILS: 'ana@empresa.com.br' });
      expect(error.problems).toEqual([
        'ADMIN_EMAILS: não existe mais: o e-mail não identifica um administrador com segurança (o de um convidado vem de outro locatário). Use ADMIN_USERS, com o id de objeto (GUID) ou o nome principal (UPN) de cada administrador no Entra ID, separados por vírgula',
      ]);
    });

    it('left empty, as in a copied .env.example, counts as unset', () => {
      expect(loadConfig({ DATA_DIR: dataDir, JWT_SECRET: SECRET, ADMIN_EMAILS: '' }).adminUsers).toEqual([]);
    });
  });

  describe('RLS_USERNAME', () => {
    it.each([
      ['upn', 'upn'],
      ['mail', 'mail'],
    ] as const)('%s → %s', (value, expected) => {
      expect(loadConfig({ DATA_DIR: dataDir, JWT_SECRET: SECRET, RLS_USERNAME: value }).rlsUsername).toBe(expected);
    });

    it('anything else → ConfigError naming RLS_USERNAME and the values it takes', () => {
      const error = configError({ DATA_DIR: dataDir, JWT_SECRET: SECRET, RLS_USERNAME: 'email' });
      expect(error.problems).toEqual(['RLS_USERNAME: use upn ou mail']);
    });
  });

  describe('REPORT_LOCALE', () => {
    it('unset → pt-BR', () => {
      expect(loadConfig({ DATA_DIR: dataDir, JWT_SECRET: SECRET }).reportLocale).toBe('pt-BR');
    });

    it.each(['en-US', 'es-ES', 'sr-Latn-CS'])('%s, a Power BI language → taken as is', (value) => {
      expect(loadConfig({ DATA_DIR: dataDir, JWT_SECRET: SECRET, REPORT_LOCALE: value }).reportLocale).toBe(value);
    });

    it.each(['pt_BR', 'en', 'xx-YY'])('%j → ConfigError naming REPORT_LOCALE, in Portuguese', (value) => {
      const error = configError({ DATA_DIR: dataDir, JWT_SECRET: SECRET, REPORT_LOCALE: value });
      expect(error.problems).toEqual([
        'REPORT_LOCALE: deve ser um idioma do Power BI no formato BCP 47, como pt-BR, en-US ou es-ES',
      ]);
    });
  });

  describe('secrets from files (<NAME>_FILE, as Docker and Kubernetes mount them)', () => {
    const file = (name: string, text: string) => {
      const at = path.join(dataDir, name);
      writeFileSync(at, text);
      return at;
    };

    it('reads JWT_SECRET, AZURE_CLIENT_SECRET, DATABASE_URL and SMTP_URL from their files, without the last line break', () => {
      const config = loadConfig({
        DATA_DIR: dataDir,
        ...AZURE,
        AZURE_CLIENT_SECRET: undefined,
        AZURE_CLIENT_SECRET_FILE: file('azure', 'segredo-do-aplicativo-em-arquivo\n'),
        JWT_SECRET_FILE: file('jwt', `${SECRET}\n`),
        DATABASE_URL_FILE: file('db', 'postgres://paineis:senha@db:5432/paineis\r\n'),
        SMTP_URL_FILE: file('smtp', 'smtps://usuario:senha@smtp.empresa.com.br:465'),
        MAIL_FROM: 'Painéis <paineis@empresa.com.br>',
      });
      expect(config.jwt.secret).toBe(SECRET);
      expect(config.microsoft?.clientSecret).toBe('segredo-do-aplicativo-em-arquivo');
      expect(config.database).toMatchObject({ kind: 'postgres', url: 'postgres://paineis:senha@db:5432/paineis' });
      expect(config.mail).toMatchObject({ kind: 'smtp', url: 'smtps://usuario:senha@smtp.empresa.com.br:465' });
    });

    it('refuses a setting given both ways, and a file missing or empty, naming the file but never its content', () => {
      const both = configError({ DATA_DIR: dataDir, JWT_SECRET: SECRET, JWT_SECRET_FILE: file('jwt', SECRET) });
      expect(both.problems).toEqual(['JWT_SECRET e JWT_SECRET_FILE: defina um ou outro, não os dois']);

      const missing = path.join(dataDir, 'nao-existe');
      const absent = configError({ DATA_DIR: dataDir, JWT_SECRET_FILE: missing });
      expect(absent.problems).toEqual([`JWT_SECRET_FILE: não foi possível ler ${missing} (o arquivo não existe)`]);

      const empty = configError({ DATA_DIR: dataDir, JWT_SECRET: SECRET, DATABASE_URL_FILE: file('db', '\n') });
      expect(empty.problems).toEqual([`DATABASE_URL_FILE: o arquivo ${path.join(dataDir, 'db')} está vazio`]);
      expect(empty.message).not.toContain(SECRET);
    });

    it('holds the file’s value to the same rules as the variable', () => {
      const error = configError({ DATA_DIR: dataDir, JWT_SECRET_FILE: file('jwt', 'curto') });
      expect(error.problems).toHaveLength(1);
      expect(error.problems[0]).toMatch(/^JWT_SECRET/);
      expect(error.message).not.toContain('curto');
    });
  });
});
