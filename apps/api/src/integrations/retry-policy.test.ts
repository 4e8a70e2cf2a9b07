import { describe, expect, it } from 'vitest';
import { atMost, RETRY_PROFILES, retryPolicy, withMoreTime } from './retry-policy.ts';

const sleep = async () => undefined;
const limits = ({
  timeoutMs,
  maxRetries,
  maxRetryAfterMs,
  deadlineMs,
  retryTimeouts,
}: ReturnType<typeof retryPolicy>) => ({
  timeoutMs,
  maxRetries,
  maxRetryAfterMs,
  deadlineMs,
  retryTimeouts,
});

describe('the retry policy of the Microsoft clients', () => {
  it('takes what the options set over the profile', () => {
    expect(limits(retryPolicy(RETRY_PROFILES.backgroundJob))).toEqual({
      timeoutMs: 30_000,
      maxRetries: 6,
      maxRetryAfterMs: 120_000,
      deadlineMs: undefined,
      retryTimeouts: true,
    });
    expect(limits(retryPolicy(RETRY_PROFILES.personWaiting, { timeoutMs: 2000, sleep }))).toEqual({
      timeoutMs: 2000,
      maxRetries: 3,
      maxRetryAfterMs: 10_000,
      deadlineMs: 20_000,
      retryTimeouts: false,
    });
  });

  it('holds a sign-in to the shorter of its own limits and the client’s', () => {
    const signIn = (options = {}) =>
      limits(atMost(retryPolicy(RETRY_PROFILES.backgroundJob, options), RETRY_PROFILES.signIn));
    expect(signIn()).toEqual({
      timeoutMs: 10_000,
      maxRetries: 2,
      maxRetryAfterMs: 5000,
      deadlineMs: 15_000,
      retryTimeouts: false,
    });
    expect(signIn({ timeoutMs: 400, maxRetries: 1, deadlineMs: 60_000 })).toEqual({
      timeoutMs: 400,
      maxRetries: 1,
      maxRetryAfterMs: 5000,
      deadlineMs: 15_000,
      retryTimeouts: false,
    });
  });

  it('gives a file four times the time of each attempt and of the call', () => {
    const file = withMoreTime(retryPolicy(RETRY_PROFILES.personWaiting, { timeoutMs: 1000 }), 4);
    expect([file.timeoutMs, file.deadlineMs]).toEqual([4000, 80_000]);
  });
});
