// Whether a PostgreSQL server can be used, for everything that runs on it when present: the API's test projects
// (vitest.config.ts), the start-up benchmark (bench/startup.ts, bench/run.ts) and scripts/measure-startup.mjs.
import pg from 'pg';

/**
 * Why no connection to `url` could be made within `timeoutMs` (the driver's message), or null when one was.
 * @param {string} url
 * @param {number} [timeoutMs]
 * @returns {Promise<string | null>}
 */
export async function postgresConnectionError(url, timeoutMs = 2_000) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  // A server that drops the connection later must not end the process with an unhandled 'error'.
  client.on('error', () => {});
  try {
    await client.connect();
    await client.end();
    return null;
  } catch (error) {
    // Node's AggregateError (several addresses tried) has an empty message but a code.
    return (
      (error instanceof Error && (error.message || /** @type {{ code?: string }} */ (error).code)) || String(error)
    );
  }
}

/**
 * Whether a PostgreSQL server accepts a connection at `url` within `timeoutMs`.
 * @param {string} url
 * @param {number} [timeoutMs]
 * @returns {Promise<boolean>}
 */
export async function postgresReachable(url, timeoutMs = 2_000) {
  return (await postgresConnectionError(url, timeoutMs)) === null;
}

/**
 * `url` with its password masked, for messages.
 * @param {string} url
 * @returns {string}
 */
export function withoutPassword(url) {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}

/**
 * Whether the PostgreSQL test project runs. Never when TEST_SKIP_POSTGRES is 'true'; otherwise when a server
 * answers at `url`. In CI (CI === 'true') a missing server is an error, not a silent skip: the suites that only
 * PostgreSQL runs would otherwise pass without running.
 * @param {{ env: Record<string, string | undefined>, url: string, probe?: (url: string) => Promise<string | null> }} options
 *   `probe` answers why no connection could be made, or null (postgresConnectionError by default).
 * @returns {Promise<boolean>}
 */
export async function postgresProjectWanted({ env, url, probe = postgresConnectionError }) {
  if (env.TEST_SKIP_POSTGRES === 'true') return false;
  const failure = await probe(url);
  if (failure === null) return true;
  if (env.CI === 'true') {
    throw new Error(
      `CI=true e nenhum servidor PostgreSQL aceitou conexão em ${withoutPassword(url)} (${failure}). ` +
        'Em CI os testes no PostgreSQL não podem ser pulados: inicie o servidor, aponte TEST_DATABASE_URL para ele ' +
        'ou, para rodar só no PGlite, defina TEST_SKIP_POSTGRES=true.',
    );
  }
  return false;
}
