/** The organisation every benchmark seeds (bench/seed.ts): panels, classifications, directory users, links. */
export const SIZES = { panels: 2_000, classifications: 40, users: 25_000, linksPerPanel: 300, rlsPanels: 200 };
/**
 * Distinct people who open one panel (no RLS) in turn at FIXED_RATE, held to FIXED_RATE_P99_MS too: each opening is
 * a row for the opening recorder to write (one person again and again folds into one row a batch).
 */
export const OPENERS = { panel: 210, people: 200 };

/**
 * The API's reads that screens wait on, held against a baseline measured in the same run, on PGlite and
 * on PostgreSQL: a bare Fastify route with helmet's default headers and no logging, in a process of its own, that
 * replies with the portal's very bytes (same status, content-type and content-encoding). The portal runs as in
 * production, its request log included (one line per request at level info). Each read must reach
 * THROUGHPUT_RATIO_MIN of the bare route's req/s (THROUGHPUT_CONNECTIONS in flight), and at a steady FIXED_RATE req/s
 * (bench/fixed-rate.mjs: evenly spaced, open loop) its p99 must stay within FIXED_RATE_P99_MS.
 * Any answer but 2xx fails the run.
 */
export const THROUGHPUT_RATIO_MIN = 0.6;
export const THROUGHPUT_CONNECTIONS = 50;
export const FIXED_RATE = 500;
export const FIXED_RATE_P99_MS = 10;

/**
 * The other calls: p99 latencies in milliseconds with 10 requests in flight at once on the 2-core reference machine,
 * on both engines. Within a blink for people, and within a second or so for the admin's 25,000-person directory.
 */
export const BUDGETS_P99_MS: Record<string, number> = {
  'GET /api/paineis/agrupados (usuário)': 200,
  'GET /api/usuarios365/ativos (25000 usuários)': 1_500,
  'GET /api/paineis/{id}/usuarios (300 vínculos)': 300,
  'GET /api/paineis/{id}/token (usuário, RLS)': 150,
  // What each row says of Power BI, answered from memory (a person's panels; every panel with Power BI's messages).
  'GET /api/paineis/atualizacoes (usuário)': 150,
  'GET /api/paineis/atualizacoes (admin, 2000 painéis)': 200,
  'GET /api/paineis/saude (admin)': 150,
};

/** A year of views for '/uso', by this many people over every panel. */
export const USAGE_SIZES = { views: 1_000_000, people: 20_000 };
/** Each call behind '/uso' (p95, one at a time, over the three periods), on both engines. */
export const USAGE_P95_MS = 300;
/** What recording an opening adds to it: queueing the view plus its share of the batched writes. */
export const RECORD_VIEW_MS = 1;

/**
 * The web app in Chromium, with SIZES seeded (one classification of 200 panels), on the 2-core reference machine.
 * Times in milliseconds, sizes in kB (1,000 bytes) of gzip at zlib's default level, scores out of 100.
 */
export const WEB_BUDGETS = {
  /** Admin's `/`: navigation to the first panel row painted (median of the loads). */
  firstRowMs: 500,
  /** No main-thread task longer than this while `/` loads, nor during a keyboard drag across 200 panels. */
  longTaskMs: 50,
  /** document.querySelectorAll('*').length on the admin's `/` once the list has rendered. */
  domNodes: 1_500,
  /** Every script `/` loads, admin or user. */
  scriptKb: 150,
  /** Every stylesheet `/` loads. */
  styleKb: 20,
  /** 'Vincular usuários' with 20,000+ active users: click to the list's rows painted. */
  linksModalOpenMs: 500,
  /** Each character typed in its search: keypress to the list showing the filtered users. */
  linksSearchKeyMs: 50,
  /** Lighthouse performance, desktop and mobile, for `/` and for /visualizar/{id}, signed in. */
  lighthouseScore: 95,
  /** Opening a panel from the list: click → powerbi-client's embed() called, the portal's own share (median). */
  openEmbedMs: 150,
  /**
   * Click → the report's `loaded` with preload and bootstrap, as a share of the same without them, measured in the
   * same run against an embed host as slow as Power BI's (medians).
   */
  openLoadedRatio: 0.7,
};

/** The compiled server on an existing data folder: spawn to the first /readyz 200 (median of the restarts). */
export const STARTUP_BUDGETS_MS = { postgres: 2_000, pglite: 3_000 };

/**
 * Access by Entra group (bench/groups.ts): the directory the Graph stand-in serves (people, and security and
 * Microsoft 365 groups nested up to `depth` levels), and each of the SIZES.panels panels linked to `groupsPerPanel`
 * groups.
 */
export const GROUP_SIZES = { people: 100_000, groups: 5_000, depth: 5, groupsPerPanel: 3 };
export const GROUP_BUDGETS_MS = {
  /** The portal's whole directory sync (people, then groups through Graph's delta) from an empty directory. */
  fullSync: 60_000,
  /** From a change (a panel's groups, or a membership after its delta sync starts) to a person's list showing it. */
  recompute: 1_000,
  /** GET /api/paineis/{id}/acesso of a panel linked to 3 large groups, and GET /api/usuarios365/{id}/acesso (p95). */
  accessP95: 300,
};

/**
 * Subscriptions' deliveries (bench/subscriptions.ts), the durability test's scenario without the kill: two instances
 * on one PostgreSQL database, `subscriptions` falling due at once, each instance exporting `exportConcurrency` at a
 * time. Power BI makes every export wait at least its Retry-After (1 s from ExportTo) before the file can be asked
 * for, so `subscriptions / (2 × exportConcurrency)` seconds is a floor no design beats; sending the messages costs at
 * least what nodemailer alone takes to hand the same messages to the same SMTP server (the bare baseline, measured in
 * the same run). The portal's own work (queueing, claims, lease renewals, one record per recipient, the audit, the
 * messages' text) may add half again over the two together.
 */
export const SUBSCRIPTION_SIZES = { subscriptions: 1_000, people: 250, exportConcurrency: 10 };
export const SUBSCRIPTION_RATIO_MAX = 1.5;

/**
 * Subscriptions through Graph (bench/subscriptions-graph.ts): the stand-in's sendMail answers after `latencyMs`, takes
 * `concurrency` requests at once (Outlook's 4), and an upload budget per window of `windowSeconds` (Outlook's 150 MB per
 * 5 minutes, scaled down) that a round's messages fill `windows` times over.
 */
export const GRAPH_MAIL_SCALE = { latencyMs: 100, concurrency: 4, windowSeconds: 10, windows: 8 };
/** The portal's median within this many times the floor the limits impose. */
export const GRAPH_RATIO_MAX = 1.5;

/**
 * The capacity's cost (bench/capacity.ts): the demo's openings replayed on a fake clock under the default policy, Azure
 * taking `resumeSeconds` to resume and `suspendSeconds` to pause. Weekday working hours alone are 55 of the week's 168
 * (33%); idle tails after them and weekend openings add to that. An opening that meets a paused capacity waits for a
 * resume, at most its length and the viewer's next ask.
 */
export const CAPACITY_BUDGETS = {
  resumeSeconds: 60,
  suspendSeconds: 30,
  hoursRatioMax: 0.5,
  longestWaitSecondsMax: 75,
};
