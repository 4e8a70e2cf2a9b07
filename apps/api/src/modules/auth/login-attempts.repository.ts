import { isIPv6 } from 'node:net';
import { sql } from 'drizzle-orm';
import { rows, type Db } from '../../db/client.ts';

/** The username as counted: as typed, trimmed and in lower case, the way accounts are found. */
export const usernameKey = (username: string) => username.trim().toLowerCase();

/**
 * The client address as counted: IPv4 as is (also when mapped into IPv6), IPv6 by its /64. One subscriber
 * holds a whole /64, so counting its addresses apart would hand a guesser 2^64 fresh ones.
 */
export function addressKey(ip: string): string {
  const address = String(ip).split('%')[0]!.toLowerCase(); // a socket already gone has no address
  if (!isIPv6(address)) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (mapped) return mapped[1]!;
  const [head = '', tail] = address.split('::');
  const left = head ? head.split(':') : [];
  // An IPv4 tail stands for two groups; only the first four groups are kept anyway.
  const right = tail ? tail.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g])) : [];
  const groups =
    tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

export interface Attempt {
  id: number;
  username: string;
  address: string;
}

/**
 * Records an attempt before its password is checked, so that attempts sent together count each other: of any
 * two, the one recorded later sees the earlier one. It stays as a failure unless forgotten.
 */
export async function recordAttempt(db: Db, username: string, ip: string): Promise<Attempt> {
  const attempt = { username: usernameKey(username), address: addressKey(ip) };
  const [row] = await rows<{ id: number }>(
    db,
    sql`insert into tentativas_login (usuario, endereco) values (${attempt.username}, ${attempt.address}) returning id`,
  );
  return { id: row!.id, ...attempt };
}

/** Takes back an attempt whose password was right, or that was refused before its password was checked. */
export async function forgetAttempt(db: Db, attempt: Attempt): Promise<void> {
  await db.execute(sql`delete from tentativas_login where id = ${attempt.id}`);
}

export interface OtherAttempts {
  /** Counted failures in the window besides this attempt: this username from this address, ... */
  pair: number;
  /** ...this address for any username... */
  address: number;
  /** ...and this username from any address. */
  username: number;
  /** Seconds until the pair, or the address, is under its limit again; null when it already is. */
  pairFreeIn: number | null;
  addressFreeIn: number | null;
}

/**
 * The failures (and attempts under way) besides `attempt` in the last `windowSeconds`, by the database's clock,
 * which every instance shares. A count of at least `limit` drops under it when its limit-th newest failure
 * leaves the window: with no more failures than the limit, that is the oldest. Both indexes serve this.
 */
export async function otherAttempts(
  db: Db,
  attempt: Attempt,
  limits: { windowSeconds: number; perUserAndAddress: number; perAddress: number },
): Promise<OtherAttempts> {
  const window = sql`make_interval(secs => ${limits.windowSeconds}::int)`;
  const pair = sql`usuario = ${attempt.username} and endereco = ${attempt.address}`;
  const address = sql`endereco = ${attempt.address}`;
  const freeIn = (where: typeof pair, limit: number) => sql`extract(epoch from (
      select momento from recentes where ${where} order by momento desc offset ${limit - 1}::int limit 1
    ) + ${window} - now())::float8`;
  const [row] = await rows<{
    par: number;
    endereco: number;
    usuario: number;
    par_livre_em: number | null;
    endereco_livre_em: number | null;
  }>(
    db,
    sql`
    with recentes as (
      select usuario, endereco, momento from tentativas_login
      where (usuario = ${attempt.username} or endereco = ${attempt.address})
        and momento > now() - ${window} and id <> ${attempt.id}
    )
    select
      count(*) filter (where ${pair})::int as par,
      count(*) filter (where ${address})::int as endereco,
      count(*) filter (where usuario = ${attempt.username})::int as usuario,
      ${freeIn(pair, limits.perUserAndAddress)} as par_livre_em,
      ${freeIn(address, limits.perAddress)} as endereco_livre_em
    from recentes`,
  );
  return {
    pair: row!.par,
    address: row!.endereco,
    username: row!.usuario,
    pairFreeIn: row!.par_livre_em === null ? null : Number(row!.par_livre_em),
    addressFreeIn: row!.endereco_livre_em === null ? null : Number(row!.endereco_livre_em),
  };
}

export async function purgeOldAttempts(db: Db): Promise<void> {
  await db.execute(sql`delete from tentativas_login where momento < now() - interval '1 hour'`);
}
