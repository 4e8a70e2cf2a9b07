import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { isTimeZone, textProblem } from '@paineis/contract/fields';
import { DEFAULT_REPORT_LOCALE, isPowerBiLocale } from '@paineis/contract/report-locales';
import { parseCapacityResourceId, type CapacityResource } from '../integrations/azure/capacity-resource.ts';

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

function signInText(value: string, ctx: z.RefinementCtx) {
  const problem = textProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: `não pode conter ${problem}` });
}

const flag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'use true ou false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UPN = /^[^\s@,;]+@[^\s@,;]+$/;

/**
 * ADMIN_USERS: administrators named by their directory identity, an object id (GUID) or a user principal name,
 * lower-cased (docs/decisions/013-identity-from-the-directory.md).
 */
const directoryUserList = z
  .string()
  .transform((v) =>
    v
      .split(/[,;\s]+/)
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean),
  )
  .pipe(
    z.array(
      z.string().refine((e) => GUID.test(e) || UPN.test(e), {
        error: (i) =>
          `'${String(i.input)}' não é um id de objeto (GUID) nem um nome principal de usuário (UPN, como ana@empresa.com.br)`,
      }),
    ),
  );

/**
 * Which proxies may say who the client is (X-Forwarded-For, -Proto, -Host): none; every hop (`true`, so a
 * client's own X-Forwarded-For entries are believed as well); or only these addresses and CIDR ranges, comma
 * separated, so the client is the last address they name. Fastify 5 no longer takes a number of hops.
 */
const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];
const proxyTrust = z
  .string()
  .trim()
  .transform((v, ctx): boolean | string[] => {
    const word = v.toLowerCase();
    if (['true', '1', 'yes'].includes(word)) return true;
    if (['false', '0', 'no'].includes(word)) return false;
    const entries = v.split(',').map((e) => e.trim());
    const wrong = entries.find((e) => !isProxyAddress(e));
    if (wrong === undefined) return entries;
    ctx.addIssue({
      code: 'custom',
      message: /^\d+$/.test(wrong)
        ? `um número de proxies ('${wrong}') não é aceito, pois não confere quem fala pelo cliente: use true, false, ou o endereço ou a faixa CIDR de cada proxy (ex.: 127.0.0.1 ou 10.0.0.0/8)`
        : `'${wrong}' não é true, false, nem endereço ou faixa CIDR de proxy (ex.: 127.0.0.1, 10.0.0.0/8, ::1, loopback)`,
    });
    return z.NEVER;
  });

function isProxyAddress(entry: string): boolean {
  if (PROXY_NAMES.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128));
}

/**
 * CORS_ORIGINS: the exact origins (scheme://host[:port], nothing after) whose pages may call the API from a
 * browser, comma separated; kept as browsers send them in `Origin` (lower-case host, no default port).
 */
const originList = z.string().transform((v, ctx): string[] => {
  const origins: string[] = [];
  for (const entry of v.split(',').map((e) => e.trim())) {
    if (!entry) continue;
    const url = URL.canParse(entry) ? new URL(entry) : null;
    const exact =
      url &&
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      !url.username &&
      !url.password &&
      url.pathname === '/' &&
      !/[?#]/.test(entry);
    if (!url || !exact) {
      ctx.addIssue({
        code: 'custom',
        message: `'${entry}' não é uma origem http(s): use esquema://host[:porta], sem caminho, como https://bi.empresa.com.br${entry === '*' ? " ('*' não é aceito: liste as origens exatas)" : ''}`,
      });
      return z.NEVER;
    }
    if (!origins.includes(url.origin)) origins.push(url.origin);
  }
  return origins;
});

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
  ADMIN_USERS: directoryUserList.default([]),
  // Its meaning changed (docs/decisions/013-identity-from-the-directory.md): refused rather than read another way.
  ADMIN_EMAILS: z
    .never({
      error:
        'não existe mais: o e-mail não identifica um administrador com segurança (o de um convidado vem de outro locatário). Use ADMIN_USERS, com o id de objeto (GUID) ou o nome principal (UPN) de cada administrador no Entra ID, separados por vírgula',
    })
    .optional(),
  RLS_USERNAME: z.enum(['upn', 'mail'], { error: 'use upn ou mail' }).default('upn'),
  REPORT_LOCALE: z
    .string()
    .trim()
    .refine(isPowerBiLocale, {
      error: 'deve ser um idioma do Power BI no formato BCP 47, como pt-BR, en-US ou es-ES',
    })
    .default(DEFAULT_REPORT_LOCALE),
  AZURE_TENANT_ID: z.string().min(1).optional(),
  AZURE_CLIENT_ID: z.string().min(1).optional(),
  AZURE_CLIENT_SECRET: z.string().min(1).optional(),
  AZURE_AUTHORITY_HOST: httpUrl.default('https://login.microsoftonline.com'),
  GRAPH_API_URL: httpUrl.default('https://graph.microsoft.com'),
  POWERBI_API_URL: httpUrl.default('https://api.powerbi.com'),
  // The Power BI capacity's ARM resource id (issue 40), and Azure Resource Manager's host (another for other clouds).
  POWER_BI_CAPACITY_ID: z
    .string()
    .trim()
    .transform((id, ctx): CapacityResource => {
      try {
        return parseCapacityResourceId(id);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    })
    .optional(),
  AZURE_MANAGEMENT_URL: httpUrl.default('https://management.azure.com'),
  GRAPH_SYNC_INTERVAL_MINUTES: z.coerce
    .number()
    .min(0)
    .max(7 * 24 * 60)
    .default(60),
  // docs/requirements.md#power-bi: how often each panel's last refresh is read from Power BI, and how often each
  // panel's report is checked (0: never on a timer, only at start and on demand).
  // 15 by default; 2 in demo mode, whose stand-in refreshes a dataset every few minutes (docs/requirements.md#power-bi).
  POWER_BI_REFRESH_INTERVAL_MINUTES: z.coerce
    .number()
    .min(0)
    .max(7 * 24 * 60)
    .optional(),
  POWER_BI_HEALTH_INTERVAL_MINUTES: z.coerce
    .number()
    .min(0)
    .max(7 * 24 * 60)
    .default(60),
  // docs/requirements.md#subscriptions: the mail transport (SMTP, or Graph sendMail from MAIL_SENDER's mailbox) and
  // the deliveries' retries, concurrency and large files.
  SMTP_URL: z
    .url({
      error: 'SMTP_URL deve ser um endereço smtp:// ou smtps://, como smtps://usuario:senha@smtp.exemplo.com:465.',
    })
    .refine((url) => /^smtps?:\/\//.test(url), 'SMTP_URL deve começar com smtp:// ou smtps://.')
    .optional(),
  MAIL_FROM: z.string().trim().min(3).max(320).optional(),
  MAIL_SENDER: z.email({ error: 'MAIL_SENDER deve ser o endereço de uma caixa de correio.' }).optional(),
  SUBSCRIPTION_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(4),
  SUBSCRIPTION_RETRY_SECONDS: z.coerce
    .number()
    .min(0)
    .max(24 * 3600)
    .default(60),
  SUBSCRIPTION_EXPORT_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(3),
  SUBSCRIPTION_POLL_SECONDS: z.coerce.number().min(0.05).max(3600).default(30),
  // The datasets a subscription sent after each refresh waits on are read this often: 5 by default, 1 in demo mode.
  SUBSCRIPTION_REFRESH_WATCH_MINUTES: z.coerce
    .number()
    .min(1)
    .max(24 * 60)
    .optional(),
  SUBSCRIPTION_LEASE_SECONDS: z.coerce.number().min(1).max(3600).default(120),
  SUBSCRIPTION_FILE_DAYS: z.coerce.number().int().min(1).max(90).default(7),
  // Fair use (docs/SECURITY.md): 'Enviar agora' allowed per person in the window.
  SUBSCRIPTION_SEND_NOW_PER_HOUR: z.coerce.number().int().min(1).max(10_000).default(10),
  SUBSCRIPTION_SEND_NOW_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(3600),
  MAIL_MAX_ATTACHMENT_MB: z.coerce.number().min(0).max(100).default(10),
  // Outlook's limits on sendMail per app and mailbox (docs/decisions/016-microsoft-contract-tests.md): Microsoft's
  // figures by default; lower to leave room for other applications sending from the same mailbox.
  MAIL_GRAPH_CONCURRENCY: z.coerce.number().int().min(1).max(4).default(4),
  MAIL_GRAPH_UPLOAD_BYTES: z.coerce.number().int().min(10_000).max(150_000_000).default(150_000_000),
  MAIL_GRAPH_UPLOAD_WINDOW_SECONDS: z.coerce.number().min(1).max(3600).default(300),
  MAIL_GRAPH_REQUESTS: z.coerce.number().int().min(1).max(10_000).default(10_000),
  MAIL_GRAPH_REQUESTS_WINDOW_SECONDS: z.coerce.number().min(1).max(3600).default(600),
  // docs/requirements.md#usage: views kept this long; their person removed after the second (0: never).
  VIEW_RETENTION_DAYS: z.coerce.number().int().min(1).max(3_650).default(400),
  VIEW_ANONYMISE_AFTER_DAYS: z.coerce.number().int().min(0).max(3_650).default(0),
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(1_825),
  // docs/decisions/018-access-by-group.md: what a public Microsoft 365 group (anyone may join it unapproved) may grant:
  // opening panels and RLS roles ('all'), opening panels only ('panels'), or nothing ('none').
  PUBLIC_GROUPS_GRANT: z
    .enum(['all', 'panels', 'none'], { error: "PUBLIC_GROUPS_GRANT deve ser 'all', 'panels' ou 'none'." })
    .default('panels'),
  // The days of '/uso' begin at midnight here.
  USAGE_TIME_ZONE: z
    .string()
    .refine(isTimeZone, 'USAGE_TIME_ZONE deve ser um fuso horário IANA, como America/Sao_Paulo.')
    .default('America/Sao_Paulo'),
  PUBLIC_URL: httpUrl.optional(),
  // Held to the sign-in's own text rule: an account it would refuse could never sign in.
  PORTAL_ADMIN_USERNAME: z.string().trim().min(3).max(100).superRefine(signInText).optional(),
  PORTAL_ADMIN_PASSWORD: z
    .string()
    .min(8, { error: 'deve ter ao menos 8 caracteres' })
    .max(200)
    .superRefine(signInText)
    .optional(),
  PORTAL_ADMIN_EMAIL: z.email().optional(),
  // Local sign-in throttling (local-sign-in.ts). The window is at most the hour the purge keeps.
  LOGIN_WINDOW_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  LOGIN_MAX_FAILURES_PER_USER_AND_ADDRESS: z.coerce.number().int().min(1).max(1000).default(5),
  LOGIN_MAX_FAILURES_PER_ADDRESS: z.coerce.number().int().min(1).max(10_000).default(20),
  LOGIN_SLOW_AFTER_FAILURES_PER_USER: z.coerce.number().int().min(1).max(100_000).default(10),
  LOGIN_MAX_DELAY_SECONDS: z.coerce.number().min(0).max(30).default(4),
  LOGIN_MAX_DELAYED_PER_USER: z.coerce.number().int().min(1).max(1000).default(4),
  LOGIN_MAX_FAILURES_PER_USER: z
    .never({
      error:
        'não existe mais: falhas de um usuário vindas de qualquer endereço só atrasam, não bloqueiam. Use LOGIN_MAX_FAILURES_PER_USER_AND_ADDRESS (bloqueio por usuário e endereço) e LOGIN_SLOW_AFTER_FAILURES_PER_USER (atraso por usuário)',
    })
    .optional(),
  WEB_DIST_DIR: z.string().min(1).optional(),
  TRUST_PROXY: proxyTrust.default(false),
  CORS_ORIGINS: originList.default([]),
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
  /** ADMIN_USERS, lower-cased: object ids and user principal names of administrators by configuration. */
  adminUsers: string[];
  /** The effective identity's username on RLS panels: the person's UPN or their directory e-mail. */
  rlsUsername: 'upn' | 'mail';
  /** REPORT_LOCALE: the language and number formats reports load with, unless a panel names its own. */
  reportLocale: string;
  /** Entra ID and Graph: from the environment, or (demo mode) pointed at the local stand-ins by server.ts. */
  microsoft: MicrosoftSettings | null;
  graphSyncIntervalMinutes: number;
  /** docs/requirements.md#power-bi: minutes between the background reads (0: never on a timer). */
  powerBi: { refreshIntervalMinutes: number; healthIntervalMinutes: number };
  /** The Power BI capacity in Azure, paused and resumed by the portal (POWER_BI_CAPACITY_ID); null: none set. */
  capacity: { resource: CapacityResource; managementUrl: string } | null;
  /** docs/requirements.md#subscriptions: how messages leave (null: no transport, nothing is sent). */
  mail: MailSettings | null;
  /** docs/requirements.md#subscriptions. */
  subscriptions: SubscriptionSettings;
  /** Outlook's limits as configured, for any Graph transport (the demo's too). */
  graphMailLimits: GraphMailLimits;
  /** What a public Microsoft 365 group may grant: panels and RLS roles, panels only, or nothing. */
  publicGroupsGrant: 'all' | 'panels' | 'none';
  /** docs/requirements.md#usage. */
  usage: { retentionDays: number; anonymiseAfterDays: number; auditRetentionDays: number; timeZone: string };
  /** The address people use to reach the portal; derived from each request when unset. */
  publicUrl: string | null;
  bootstrapAdmin: { username: string; password: string; email: string } | null;
  loginLimits: LoginLimits;
  webDistDir: string;
  /** Fastify's `trustProxy`: false, true (every hop), or the proxies' addresses and CIDR ranges. */
  trustProxy: boolean | string[];
  /** Origins allowed to call the API from a browser (CORS); empty: none, the browser refuses them. */
  corsOrigins: string[];
}

/**
 * SMTP through a mail library, or Microsoft Graph sendMail from one mailbox (with Microsoft configuration; in demo
 * mode, server.ts points it at the Graph stand-in).
 */
export type MailSettings =
  | { kind: 'smtp'; url: string; from: string; maxAttachmentBytes: number }
  | { kind: 'graph'; sender: string; maxAttachmentBytes: number; limits: GraphMailLimits };

/**
 * What the portal keeps to of Outlook's limits on one app's requests to one mailbox (Microsoft Graph throttling
 * limits, "Outlook service limits"), across every instance: held in the database (modules/subscriptions/mail-gate.ts).
 */
export interface GraphMailLimits {
  /** sendMail requests in flight at once ("4 concurrent requests"). */
  concurrency: number;
  /** Bytes of sendMail requests (their bodies) in any window of `uploadWindowSeconds` ("150 megabytes… 5 minutes"). */
  uploadBytes: number;
  uploadWindowSeconds: number;
  /** Requests in any window of `requestsWindowSeconds` ("10,000 API requests in a 10 minute period"). */
  requests: number;
  requestsWindowSeconds: number;
}

export interface SubscriptionSettings {
  /** Attempts of one delivery, the first included, before it is marked failed. */
  maxAttempts: number;
  /** The first retry's wait; each next one doubles it. */
  retrySeconds: number;
  /** Exports rendered at once by this instance. */
  exportConcurrency: number;
  /** How often this instance looks for due deliveries. */
  pollSeconds: number;
  /**
   * How often the datasets that subscriptions sent after each refresh wait on have their refresh history read (the
   * task 'assinaturas-atualizacao'), besides the freshness round over every panel.
   */
  refreshWatchMinutes: number;
  /** How long a claimed delivery is held by its instance (renewed while it works); a dead instance's is taken after. */
  leaseSeconds: number;
  /** How long a file too large to attach stays downloadable. */
  fileDays: number;
  /** 'Enviar agora' allowed per person within `sendNowWindowSeconds` (a 429 with Retry-After beyond). */
  sendNowLimit: number;
  sendNowWindowSeconds: number;
}

/**
 * Graph takes an attachment in the message itself only under 3 MB ("Attach large files to Outlook messages": a
 * larger one needs an upload session), and a request of at most 4 MB: decimal megabytes, as Microsoft writes them. A
 * file this size grows by a third in base64; the message's request is checked against the 4 MB too
 * (GraphMailTransport.maxRequestBytes).
 */
export const GRAPH_MAX_ATTACHMENT_BYTES = 3_000_000;

/** Local sign-in throttling; local-sign-in.ts says how each one is used. */
export interface LoginLimits {
  windowSeconds: number;
  /** Failures for one username from one address in the window, then 429. */
  perUserAndAddress: number;
  /** Failures from one address in the window, whatever the usernames, then 429. */
  perAddress: number;
  /** Failures for one username from any address in the window before its attempts from failing addresses wait. */
  slowAfterPerUser: number;
  /** The longest such wait; 0 turns the wait off. */
  maxDelayMs: number;
  /** Waiting attempts per username on one instance; one more gets 429. */
  maxDelayedPerUser: number;
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

/**
 * The settings that may come from a file instead, as Docker and Kubernetes mount secrets (`JWT_SECRET_FILE=/run/
 * secrets/jwt`): the file's text, without its final line break.
 */
export const SECRET_FILE_SETTINGS = ['JWT_SECRET', 'AZURE_CLIENT_SECRET', 'DATABASE_URL', 'SMTP_URL'] as const;

/** `given` with each `<NAME>_FILE` read into `<NAME>`, or the problems: both set, or a file that cannot be read. */
function withSecretFiles(given: Record<string, string>): { values: Record<string, string>; problems: string[] } {
  const values = { ...given };
  const problems: string[] = [];
  for (const name of SECRET_FILE_SETTINGS) {
    const file = values[`${name}_FILE`];
    delete values[`${name}_FILE`];
    if (file === undefined) continue;
    if (values[name] !== undefined) {
      problems.push(`${name} e ${name}_FILE: defina um ou outro, não os dois`);
      continue;
    }
    try {
      const text = readFileSync(file, 'utf8').replace(/\r?\n$/, '');
      if (text === '') problems.push(`${name}_FILE: o arquivo ${file} está vazio`);
      else values[name] = text;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      problems.push(
        `${name}_FILE: não foi possível ler ${file} (${code === 'ENOENT' ? 'o arquivo não existe' : (code ?? 'erro de leitura')})`,
      );
    }
  }
  return { values, problems };
}

/** Reads and checks the whole configuration once. Nothing else in the API reads process.env. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty values count as unset, as they do in most .env files.
  const set = Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== ''),
  );
  const { values: given, problems: fileProblems } = withSecretFiles(set);
  // The file's path is named; its content, a secret, never is.
  if (fileProblems.length > 0) throw new ConfigError(fileProblems);
  const parsed = envSchema.safeParse(given);
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
  // A server that looks like a deployment (NODE_ENV=production said, not defaulted; a PostgreSQL server) and lacks its
  // Microsoft settings gets the demo, with its public administrator, only when asked for by name.
  const deployment = [
    ...(given.NODE_ENV === 'production' ? ['com NODE_ENV=production'] : []),
    ...(e.DATABASE_URL ? ['num servidor PostgreSQL (DATABASE_URL)'] : []),
  ];
  // (Some AZURE_* but not all is reported above.)
  const demoRefused = demoMode && e.DEMO_MODE !== true && azureSet === 0 && deployment.length > 0;
  if (demoRefused) {
    problems.push(
      `DEMO_MODE: sem AZURE_TENANT_ID, AZURE_CLIENT_ID e AZURE_CLIENT_SECRET, o portal rodaria em modo demonstração mesmo ${deployment.join(' e ')}: com dados fictícios e um administrador de demonstração público (demo.admin, senha "demo"). Para o portal de verdade, configure o Microsoft (AZURE_*), ou defina DEMO_MODE=false para usá-lo só com contas locais; para querer mesmo a demonstração, defina DEMO_MODE=true`,
    );
  }

  const dataDir = path.resolve(REPO_ROOT, e.DATA_DIR);
  let secret = e.JWT_SECRET;
  // A refused demo writes no secret, and the refusal says what to set instead.
  if (!secret && !demoRefused) {
    if (demoMode || e.NODE_ENV !== 'production') secret = demoSecret(dataDir);
    else problems.push('JWT_SECRET: obrigatório fora do modo demonstração (ao menos 32 caracteres aleatórios)');
  }
  if (Boolean(e.PORTAL_ADMIN_USERNAME) !== Boolean(e.PORTAL_ADMIN_PASSWORD)) {
    problems.push(
      'PORTAL_ADMIN_USERNAME e PORTAL_ADMIN_PASSWORD: defina os dois para criar o administrador local, ou nenhum',
    );
  }
  if (e.SMTP_URL && !e.MAIL_FROM) {
    problems.push(
      'MAIL_FROM: obrigatório com SMTP_URL (o remetente das mensagens, como "Painéis <paineis@exemplo.com>")',
    );
  }
  if (e.MAIL_SENDER && !microsoft && !e.SMTP_URL) {
    problems.push(
      'MAIL_SENDER: o envio pelo Microsoft Graph exige a configuração Microsoft (AZURE_TENANT_ID, AZURE_CLIENT_ID, AZURE_CLIENT_SECRET)',
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);
  const maxAttachmentBytes = Math.round(e.MAIL_MAX_ATTACHMENT_MB * 1024 * 1024);
  const graphMailLimits: GraphMailLimits = {
    concurrency: e.MAIL_GRAPH_CONCURRENCY,
    uploadBytes: e.MAIL_GRAPH_UPLOAD_BYTES,
    uploadWindowSeconds: e.MAIL_GRAPH_UPLOAD_WINDOW_SECONDS,
    requests: e.MAIL_GRAPH_REQUESTS,
    requestsWindowSeconds: e.MAIL_GRAPH_REQUESTS_WINDOW_SECONDS,
  };

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
    adminUsers: e.ADMIN_USERS,
    rlsUsername: e.RLS_USERNAME,
    reportLocale: e.REPORT_LOCALE,
    microsoft,
    graphSyncIntervalMinutes: e.GRAPH_SYNC_INTERVAL_MINUTES,
    powerBi: {
      refreshIntervalMinutes: e.POWER_BI_REFRESH_INTERVAL_MINUTES ?? (demoMode ? 2 : 15),
      healthIntervalMinutes: e.POWER_BI_HEALTH_INTERVAL_MINUTES,
    },
    capacity: e.POWER_BI_CAPACITY_ID
      ? { resource: e.POWER_BI_CAPACITY_ID, managementUrl: e.AZURE_MANAGEMENT_URL }
      : null,
    mail: e.SMTP_URL
      ? { kind: 'smtp', url: e.SMTP_URL, from: e.MAIL_FROM!, maxAttachmentBytes }
      : e.MAIL_SENDER && microsoft
        ? {
            kind: 'graph',
            sender: e.MAIL_SENDER.toLowerCase(),
            maxAttachmentBytes: Math.min(maxAttachmentBytes, GRAPH_MAX_ATTACHMENT_BYTES),
            limits: graphMailLimits,
          }
        : null,
    graphMailLimits,
    subscriptions: {
      maxAttempts: e.SUBSCRIPTION_MAX_ATTEMPTS,
      retrySeconds: e.SUBSCRIPTION_RETRY_SECONDS,
      exportConcurrency: e.SUBSCRIPTION_EXPORT_CONCURRENCY,
      pollSeconds: e.SUBSCRIPTION_POLL_SECONDS,
      refreshWatchMinutes: e.SUBSCRIPTION_REFRESH_WATCH_MINUTES ?? (demoMode ? 1 : 5),
      leaseSeconds: e.SUBSCRIPTION_LEASE_SECONDS,
      fileDays: e.SUBSCRIPTION_FILE_DAYS,
      sendNowLimit: e.SUBSCRIPTION_SEND_NOW_PER_HOUR,
      sendNowWindowSeconds: e.SUBSCRIPTION_SEND_NOW_WINDOW_SECONDS,
    },
    publicGroupsGrant: e.PUBLIC_GROUPS_GRANT,
    usage: {
      retentionDays: e.VIEW_RETENTION_DAYS,
      anonymiseAfterDays: e.VIEW_ANONYMISE_AFTER_DAYS,
      auditRetentionDays: e.AUDIT_RETENTION_DAYS,
      timeZone: e.USAGE_TIME_ZONE,
    },
    publicUrl: e.PUBLIC_URL ?? null,
    bootstrapAdmin:
      e.PORTAL_ADMIN_USERNAME && e.PORTAL_ADMIN_PASSWORD
        ? {
            username: e.PORTAL_ADMIN_USERNAME,
            password: e.PORTAL_ADMIN_PASSWORD,
            email: (e.PORTAL_ADMIN_EMAIL ?? `${e.PORTAL_ADMIN_USERNAME}@paineis.local`).toLowerCase(),
          }
        : null,
    loginLimits: {
      windowSeconds: e.LOGIN_WINDOW_SECONDS,
      perUserAndAddress: e.LOGIN_MAX_FAILURES_PER_USER_AND_ADDRESS,
      perAddress: e.LOGIN_MAX_FAILURES_PER_ADDRESS,
      slowAfterPerUser: e.LOGIN_SLOW_AFTER_FAILURES_PER_USER,
      maxDelayMs: Math.round(e.LOGIN_MAX_DELAY_SECONDS * 1000),
      maxDelayedPerUser: e.LOGIN_MAX_DELAYED_PER_USER,
    },
    webDistDir: path.resolve(REPO_ROOT, e.WEB_DIST_DIR ?? 'apps/web/dist'),
    trustProxy: e.TRUST_PROXY,
    corsOrigins: e.CORS_ORIGINS,
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
