import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { testConfig, useTestApp, type TestContext } from '../../../test/context.ts';
import { localAccount } from '../../../test/fixtures.ts';
import { ConfigError, loadConfig } from '../../config/env.ts';
import { rows } from '../../db/client.ts';
import { FIRST_DELAY_MS, LOGIN_INVALID, delayFor, loginDelay, loginThrottled } from './local-sign-in.ts';
import { addressKey } from './login-attempts.repository.ts';

const OWNER = { username: 'admin', password: 'senha-do-dono-1' };
const WINDOW = 60;

/** Small limits, so a test reaches each of them in a few requests. */
const limits = {
  LOGIN_MAX_FAILURES_PER_USER_AND_ADDRESS: '3',
  LOGIN_MAX_FAILURES_PER_ADDRESS: '8',
  LOGIN_SLOW_AFTER_FAILURES_PER_USER: '5',
  LOGIN_MAX_DELAY_SECONDS: '2',
  LOGIN_MAX_DELAYED_PER_USER: '5',
};

const ownerAccount = (ctx: TestContext, username = OWNER.username, password = OWNER.password) =>
  localAccount(ctx.db, username, password, { role: 'Admin' });

/** A sign-in from `address`, as the socket's peer (no proxy is trusted here). */
async function login(ctx: TestContext, address: string, body: { username: string; password: string }) {
  const res = await ctx.app.inject({ method: 'POST', url: '/api/auth/login', payload: body, remoteAddress: address });
  return { status: res.statusCode, retryAfter: res.headers['retry-after'], body: res.json<{ message?: string }>() };
}

/** Every wait asked for, in order; the test decides when each ends (at once unless told otherwise). */
function recordWaits() {
  const waits: number[] = [];
  let hold: Promise<void> | null = null;
  let release: () => void = () => undefined;
  vi.spyOn(loginDelay, 'wait').mockImplementation(async (ms) => {
    waits.push(ms);
    if (hold) await hold;
  });
  return {
    waits,
    /** Later waits last until `release()`. */
    holdNext() {
      hold = new Promise<void>((resolve) => (release = resolve));
    },
    release: () => {
      hold = null;
      release();
    },
  };
}

async function until(condition: () => boolean) {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition()).toBe(true);
}

describe('local sign-in throttling', () => {
  const ctx = useTestApp({ config: testConfig(limits) });
  let clock: ReturnType<typeof recordWaits>;

  beforeEach(async () => {
    clock = recordWaits();
    await ownerAccount(ctx);
  });
  afterEach(() => {
    clock.release();
    vi.restoreAllMocks();
  });

  it('50 wrong passwords for admin from 10 addresses: the addresses get 429, later guesses wait longer and longer, the owner gets in at once', async () => {
    const answers: ({ address: number; waited: number[] } & Awaited<ReturnType<typeof login>>)[] = [];
    for (let a = 1; a <= 10; a++) {
      for (let i = 0; i < 5; i++) {
        const before = clock.waits.length;
        const res = await login(ctx, `203.0.113.${a}`, { username: 'admin', password: `chute-${a}-${i}` });
        answers.push({ address: a, ...res, waited: clock.waits.slice(before) });
      }
    }
    // Each address: three wrong passwords are checked (401), then 429 until its oldest failure leaves the window.
    for (let a = 1; a <= 10; a++) {
      expect(answers.filter((r) => r.address === a).map((r) => r.status)).toEqual([401, 401, 401, 429, 429]);
    }
    for (const refused of answers.filter((r) => r.status === 429)) {
      expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(WINDOW - 5);
      expect(Number(refused.retryAfter)).toBeLessThanOrEqual(WINDOW);
      expect(refused.body).toEqual({ message: loginThrottled(Number(refused.retryAfter)) });
      expect(refused.waited).toEqual([]); // refused before any wait or password check
    }
    // Past 5 failures for admin, each guess from an address that has failed waits before its password is
    // checked: 250 ms, doubling, capped at 2 s. An address's first guess has not failed yet, so it does not wait.
    expect(answers.filter((r) => r.status === 401).map((r) => r.waited[0] ?? 0)).toEqual([
      ...[0, 0, 0], // 203.0.113.1: failures 0, 1, 2 for admin so far
      ...[0, 0, 250], // .2: a clean address, then 4, then 5 failures
      ...[0, 1000, 2000], // .3: clean, then 7 and 8 failures
      ...Array.from({ length: 7 }, () => [0, 2000, 2000]).flat(),
    ]);
    expect(await rows(ctx.db, sql`select id from tentativas_login`)).toHaveLength(30);

    // The owner, from an address that has not failed: signed in at once, with no wait.
    const before = clock.waits.length;
    const owner = await login(ctx, '198.51.100.7', OWNER);
    expect(owner.status).toBe(200);
    expect(clock.waits.length).toBe(before);
    // The right password from an attacker's address is still refused: that address is blocked.
    expect((await login(ctx, '203.0.113.1', OWNER)).status).toBe(429);
    // A successful sign-in is not a failure.
    expect(await rows(ctx.db, sql`select id from tentativas_login`)).toHaveLength(30);
  });

  it('slows, and never blocks, the owner at an address that has failed while the username is under attack', async () => {
    for (let a = 1; a <= 6; a++) {
      expect((await login(ctx, `203.0.113.${a}`, { username: 'ADMIN ', password: 'chute' })).status).toBe(401);
    }
    // The owner mistypes once, then types the right password: it waits (6 + 1 failures: 250 × 2²) and gets in.
    expect((await login(ctx, '198.51.100.7', { username: 'admin', password: 'senha-do-don' })).status).toBe(401);
    expect(clock.waits).toEqual([]);
    const owner = await login(ctx, '198.51.100.7', OWNER);
    expect(owner.status).toBe(200);
    expect(clock.waits).toEqual([1000]);
  });

  it('per address: an address trying many usernames is refused for all of them, others are not', async () => {
    await ownerAccount(ctx, 'maria', 'senha-da-maria');
    for (let i = 0; i < 8; i++) {
      expect((await login(ctx, '192.0.2.50', { username: `usuario${i}`, password: 'x' })).status).toBe(401);
    }
    const refused = await login(ctx, '192.0.2.50', { username: 'maria', password: 'senha-da-maria' });
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(WINDOW - 5);
    expect(refused.body.message).toMatch(/^Muitas tentativas de login\. Aguarde \d+ segundos e tente novamente\.$/);
    expect((await login(ctx, '192.0.2.51', { username: 'maria', password: 'senha-da-maria' })).status).toBe(200);
    expect(clock.waits).toEqual([]); // each username failed once: nothing to slow down
  });

  it('Retry-After is the time until the failure that keeps the limit leaves the window, and then the owner gets in', async () => {
    const failAt = (usuario: string, endereco: string, secondsAgo: number) =>
      ctx.db.execute(sql`insert into tentativas_login (usuario, endereco, momento)
        values (${usuario}, ${endereco}, now() - make_interval(secs => ${secondsAgo}::int))`);
    await failAt('admin', '192.0.2.1', 45);
    await failAt('admin', '192.0.2.1', 30);
    await failAt('admin', '192.0.2.1', 10);
    const refused = await login(ctx, '192.0.2.1', OWNER);
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBe('15');
    expect(refused.body).toEqual({ message: 'Muitas tentativas de login. Aguarde 15 segundos e tente novamente.' });

    // The address is also past its own limit (8) through other usernames: the later of the two counts. Its
    // failures were 10, 15, 16, 17, 18, 19, 20, 30 and 45 s ago; it is under 8 again when the 8th newest leaves.
    for (let i = 0; i < 6; i++) await failAt(`outro${i}`, '192.0.2.1', 20 - i);
    expect((await login(ctx, '192.0.2.1', OWNER)).retryAfter).toBe('30');

    // Once those leave the window, the right password gets in.
    await ctx.db.execute(sql`update tentativas_login set momento = momento - interval '41 seconds'`);
    expect((await login(ctx, '192.0.2.1', OWNER)).status).toBe(200);
  });

  it('counts attempts sent together: no more than the limit reach the password check', async () => {
    const burst = await Promise.all(
      Array.from({ length: 12 }, (_, i) => login(ctx, '192.0.2.9', { username: 'admin', password: `chute-${i}` })),
    );
    const checked = burst.filter((r) => r.status === 401);
    expect(checked.length).toBeLessThanOrEqual(3);
    expect(checked.every((r) => r.body.message === LOGIN_INVALID)).toBe(true);
    const refused = burst.filter((r) => r.status === 429);
    expect(refused.length).toBe(12 - checked.length);
    expect(refused.every((r) => Number(r.retryAfter) >= 1)).toBe(true);
    // Only checked passwords stay counted.
    expect(await rows(ctx.db, sql`select id from tentativas_login`)).toHaveLength(checked.length);
  });

  it('waits on a timer that holds no database connection, and refuses waiters past the cap with 429', async () => {
    // admin has failed 6 times, once from each of six addresses.
    for (let a = 1; a <= 6; a++) {
      await ctx.db.execute(sql`insert into tentativas_login (usuario, endereco) values ('admin', ${`203.0.113.${a}`})`);
    }
    clock.holdNext();
    // Five guesses wait at once: more than the test database's pool of four connections.
    const waiting = Array.from({ length: 5 }, (_, i) =>
      login(ctx, `203.0.113.${i + 1}`, { username: 'admin', password: `chute-${i}` }),
    );
    await until(() => clock.waits.length === 5);
    // Each saw 6 failures and the guesses recorded before it: 500 ms (6) to 2 s (8 or more).
    expect(clock.waits.every((ms) => [500, 1000, 2000].includes(ms))).toBe(true);

    // A sixth for the same username is not queued: 429, to come back when a wait would be over.
    const sixth = await login(ctx, '203.0.113.6', { username: 'admin', password: 'chute-6' });
    expect(sixth.status).toBe(429);
    expect(sixth.retryAfter).toBe('2');
    expect(sixth.body).toEqual({ message: loginThrottled(2) });

    // Meanwhile the database answers everyone else: the owner signs in at once from a clean address.
    expect((await login(ctx, '198.51.100.7', OWNER)).status).toBe(200);

    clock.release();
    expect((await Promise.all(waiting)).map((r) => r.status)).toEqual([401, 401, 401, 401, 401]);
    // With the waiters gone, the next guess waits again instead of being refused.
    expect((await login(ctx, '203.0.113.6', { username: 'admin', password: 'chute-7' })).status).toBe(401);
  });

  it('the wait grows from 250 ms, doubling per failure past the threshold, up to the cap; 0 turns it off', () => {
    const config = testConfig(limits).loginLimits;
    expect([4, 5, 6, 7, 8, 9, 500].map((n) => delayFor(config, n))).toEqual([0, 250, 500, 1000, 2000, 2000, 2000]);
    expect(FIRST_DELAY_MS).toBe(250);
    const off = testConfig({ ...limits, LOGIN_MAX_DELAY_SECONDS: '0' }).loginLimits;
    expect(delayFor(off, 1000)).toBe(0);
  });
});

describe('the real wait', () => {
  it('is a timer', async () => {
    const started = performance.now();
    await loginDelay.wait(30);
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
  });
});

describe('client addresses as counted', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:aa:bb:1:2:3:4', '2001:db8:aa:bb::/64'],
    ['2001:DB8:AA:BB::99', '2001:db8:aa:bb::/64'],
    ['2001:0db8:00aa:0000::1', '2001:db8:aa:0::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['64:ff9b::192.0.2.1', '64:ff9b:0:0::/64'],
  ])('%s counts as %s', (ip, key) => {
    expect(addressKey(ip)).toBe(key);
  });
});

describe('behind a trusted proxy', () => {
  const ctx = useTestApp({ config: testConfig({ ...limits, TRUST_PROXY: '10.0.0.1' }) });
  beforeEach(async () => {
    recordWaits();
    await ownerAccount(ctx);
  });
  afterEach(() => vi.restoreAllMocks());

  const viaProxy = async (forwardedFor: string, remoteAddress = '10.0.0.1') =>
    (
      await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: 'admin', password: 'chute' },
        remoteAddress,
        headers: { 'x-forwarded-for': forwardedFor },
      })
    ).statusCode;

  it('counts the address the proxy saw, whatever the client put before it in X-Forwarded-For', async () => {
    // nginx with proxy_add_x_forwarded_for appends the address it saw to whatever the client sent.
    expect(await viaProxy('198.51.100.1, 203.0.113.9')).toBe(401);
    expect(await viaProxy('198.51.100.2, 203.0.113.9')).toBe(401);
    expect(await viaProxy('203.0.113.9')).toBe(401);
    expect(await viaProxy('198.51.100.3, 203.0.113.9')).toBe(429);
    // Not through the proxy: its X-Forwarded-For is not believed.
    expect(await viaProxy('203.0.113.10', '192.0.2.80')).toBe(401);
    const counted = await rows<{ endereco: string }>(
      ctx.db,
      sql`select distinct endereco from tentativas_login order by 1`,
    );
    expect(counted.map((r) => r.endereco)).toEqual(['192.0.2.80', '203.0.113.9']);
  });
});

describe('login settings', () => {
  const load = (env: Record<string, string>) =>
    loadConfig({ NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(32), DEMO_MODE: 'false', DATA_DIR: '/tmp/x', ...env });
  const problems = (env: Record<string, string>) => {
    try {
      load(env);
    } catch (error) {
      if (error instanceof ConfigError) return error.problems;
      throw error;
    }
    return [];
  };

  it('defaults: 5 per username and address, 20 per address, a minute; slowing after 10, up to 4 s, 4 waiting', () => {
    expect(load({}).loginLimits).toEqual({
      windowSeconds: 60,
      perUserAndAddress: 5,
      perAddress: 20,
      slowAfterPerUser: 10,
      maxDelayMs: 4000,
      maxDelayedPerUser: 4,
    });
  });

  it('refuses the old per-username limit, naming what replaced it', () => {
    expect(problems({ LOGIN_MAX_FAILURES_PER_USER: '5' })).toEqual([
      expect.stringMatching(
        /^LOGIN_MAX_FAILURES_PER_USER: não existe mais.*LOGIN_MAX_FAILURES_PER_USER_AND_ADDRESS.*LOGIN_SLOW_AFTER_FAILURES_PER_USER/,
      ),
    ]);
    expect(problems({ LOGIN_WINDOW_SECONDS: '7200' })).toEqual([expect.stringMatching(/^LOGIN_WINDOW_SECONDS: /)]);
  });

  it.each([
    ['true', true],
    ['1', true],
    ['no', false],
    ['0', false],
    ['127.0.0.1', ['127.0.0.1']],
    [' 10.0.0.0/8, ::1/128 ,loopback', ['10.0.0.0/8', '::1/128', 'loopback']],
  ])('TRUST_PROXY=%j is %j', (value, trust) => {
    expect(load({ TRUST_PROXY: value }).trustProxy).toEqual(trust);
  });

  it.each([
    ['2', /^TRUST_PROXY: um número de proxies \('2'\) não é aceito/],
    ['10.0.0.0/33', /^TRUST_PROXY: '10\.0\.0\.0\/33' não é true, false, nem endereço ou faixa CIDR de proxy/],
    ['127.0.0.1, proxy.interno', /^TRUST_PROXY: 'proxy\.interno' não é true, false/],
    ['10.0.0.1,', /^TRUST_PROXY: '' não é/],
  ])('TRUST_PROXY=%j is refused with a message that says what to write', (value, message) => {
    expect(problems({ TRUST_PROXY: value })).toEqual([expect.stringMatching(message)]);
  });
});
