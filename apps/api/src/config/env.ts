import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/**
 * The repository root: two folders above the API's package (apps/api), the nearest folder with a package.json
 * above this module. Found by walking up, so it is the same from src/config/ (tsx, tests) and from the
 * compiled bundle in dist/.
 */
export const REPO_ROOT = (() => {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return path.resolve(dir, '../..');
})();

const flag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'use true ou false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const emailList = z
  .string()
  .transform((v) =>
    v
      .split(/[,;\s]+/)
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean),
  )
  .pipe(z.array(z.email({ error: (i) => `'${String(i.input)}' não é um e-mail` })));

/** An http(s) base URL, kept without its trailing slash. */
const httpUrl = z
  .url({ protocol: /^https?$/, error: 'deve ser uma URL http:// ou https://' })
  .transform((u) => u.replace(/\/+$/, ''));

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  HOST: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { error: 'deve começar com postgres:// ou postgresql://' })
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  DATA_DIR: z.string().min(1).default('.data'),
  JWT_SECRET: z.string().min(32, { error: 'deve ter ao menos 32 caracteres' }).optional(),
  JWT_ISSUER: z.string().min(1).default('paineis'),
  JWT_AUDIENCE: z.string().min(1).default('paineis-web'),
  JWT_TTL_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 7)
    .default(8),
  DEMO_MODE: flag.optional(),
  ADMIN_EMAILS: emailList.default([]),
  AZURE_TENANT_ID: z.string().min(1).optional(),
  AZURE_CLIENT_ID: z.string().min(1).optional(),
  AZURE_CLIENT_SECRET: z.string().min(1).optional(),
  AZURE_AUTHORITY_HOST: httpUrl.default('https://login.microsoftonline.com'),
  GRAPH_API_URL: httpUrl.default('https://graph.microsoft.com'),
  POWERBI_API_URL: httpUrl.default('https://api.powerbi.com'),
  GRAPH_SYNC_INTERVAL_MINUTES: z.coerce
    .number()
    .min(0)
    .max(7 * 24 * 60)
    .default(60),
  PUBLIC_URL: httpUrl.optional(),
  PORTAL_ADMIN_USERNAME: z.string().trim().min(3).max(100).optional(),
  PORTAL_ADMIN_PASSWORD: z.string().min(8, { error: 'deve ter ao menos 8 caracteres' }).max(200).optional(),
  PORTAL_ADMIN_EMAIL: z.email().optional(),
  LOGIN_MAX_FAILURES_PER_USER: z.coerce.number().int().min(1).max(1000).default(5),
  LOGIN_MAX_FAILURES_PER_ADDRESS: z.coerce.number().int().min(1).max(10_000).default(20),
  WEB_DIST_DIR: z.string().min(1).optional(),
  TRUST_PROXY: flag.default(false),
});

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  logLevel: string;
  database: { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; url: string; poolSize: number };
  dataDir: string;
  jwt: { secret: string; issuer: string; audience: string; ttlSeconds: number };
  demoMode: boolean;
  adminEmails: string[];
  /** Entra ID and Graph: from the environment, or (demo mode) pointed at the local stand-ins by server.ts. */
  microsoft: MicrosoftSettings | null;
  graphSyncIntervalMinutes: number;
  /** The address people use to reach the portal; derived from each request when unset. */
  publicUrl: string | null;
  bootstrapAdmin: { username: string; password: string; email: string } | null;
  loginLimits: { perUser: number; perAddress: number };
  webDistDir: string;
  trustProxy: boolean;
}

export interface MicrosoftSettings {
  tenantId: string;
  clientId: string;
  clientSecret: string;
  /** https://login.microsoftonline.com, or a stand-in. */
  authorityHost: string;
  /** https://graph.microsoft.com, or a stand-in. */
  graphUrl: string;
  /** https://api.powerbi.com, or a stand-in. */
  powerBiApiUrl: string;
  /**
   * Demo mode only: the stand-in page that plays https://app.powerbi.com/reportEmbed, which the web app shows
   * instead (powerbi-client embeds nothing but Power BI hosts). Never set from the environment.
   */
  demoEmbedHost?: string;
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Configuração inválida:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Reads and checks the whole configuration once. Nothing else in the API reads process.env. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(
    // Empty values count as unset, as they do in most .env files.
    Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== '')),
  );
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const e = parsed.data;
  const problems: string[] = [];

  const azure = [e.AZURE_TENANT_ID, e.AZURE_CLIENT_ID, e.AZURE_CLIENT_SECRET];
  const azureSet = azure.filter(Boolean).length;
  if (azureSet > 0 && azureSet < 3) {
    problems.push(
      'AZURE_TENANT_ID, AZURE_CLIENT_ID e AZURE_CLIENT_SECRET: defina os três para usar os serviços Microsoft, ou nenhum para o modo demonstração',
    );
  }
  const microsoft =
    azureSet === 3
      ? {
          tenantId: e.AZURE_TENANT_ID!,
          clientId: e.AZURE_CLIENT_ID!,
          clientSecret: e.AZURE_CLIENT_SECRET!,
          authorityHost: e.AZURE_AUTHORITY_HOST,
          graphUrl: e.GRAPH_API_URL,
          powerBiApiUrl: e.POWERBI_API_URL,
        }
      : null;
  if (microsoft && e.DEMO_MODE === true) {
    problems.push('DEMO_MODE: o modo demonstração não pode ser ligado com a configuração Microsoft definida');
  }
  const demoMode = microsoft ? false : (e.DEMO_MODE ?? true);

  const dataDir = path.resolve(REPO_ROOT, e.DATA_DIR);
  let secret = e.JWT_SECRET;
  if (!secret) {
    if (demoMode || e.NODE_ENV !== 'production') secret = demoSecret(dataDir);
    else problems.push('JWT_SECRET: obrigatório fora do modo demonstração (ao menos 32 caracteres aleatórios)');
  }
  if (Boolean(e.PORTAL_ADMIN_USERNAME) !== Boolean(e.PORTAL_ADMIN_PASSWORD)) {
    problems.push(
      'PORTAL_ADMIN_USERNAME e PORTAL_ADMIN_PASSWORD: defina os dois para criar o administrador local, ou nenhum',
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);

  return {
    env: e.NODE_ENV,
    port: e.PORT,
    // The demo hands out ready tokens: keep it on this machine unless told otherwise.
    host: e.HOST ?? (demoMode ? '127.0.0.1' : '0.0.0.0'),
    logLevel: e.LOG_LEVEL,
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL, poolSize: e.DATABASE_POOL_SIZE }
      : { kind: 'pglite', dataDir: path.join(dataDir, 'pglite') },
    dataDir,
    jwt: {
      secret: secret!,
      issuer: e.JWT_ISSUER,
      audience: e.JWT_AUDIENCE,
      ttlSeconds: Math.round(e.JWT_TTL_HOURS * 3600),
    },
    demoMode,
    adminEmails: e.ADMIN_EMAILS,
    microsoft,
    graphSyncIntervalMinutes: e.GRAPH_SYNC_INTERVAL_MINUTES,
    publicUrl: e.PUBLIC_URL ?? null,
    bootstrapAdmin:
      e.PORTAL_ADMIN_USERNAME && e.PORTAL_ADMIN_PASSWORD
        ? {
            username: e.PORTAL_ADMIN_USERNAME,
            password: e.PORTAL_ADMIN_PASSWORD,
            email: (e.PORTAL_ADMIN_EMAIL ?? `${e.PORTAL_ADMIN_USERNAME}@paineis.local`).toLowerCase(),
          }
        : null,
    loginLimits: { perUser: e.LOGIN_MAX_FAILURES_PER_USER, perAddress: e.LOGIN_MAX_FAILURES_PER_ADDRESS },
    webDistDir: path.resolve(REPO_ROOT, e.WEB_DIST_DIR ?? 'apps/web/dist'),
    trustProxy: e.TRUST_PROXY,
  };
}

/** A random secret kept in the data folder, so demo sessions survive restarts. */
function demoSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
