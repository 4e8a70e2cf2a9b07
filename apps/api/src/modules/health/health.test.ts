import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/context.ts';

describe('health', () => {
  const ctx = useTestApp();

  it('answers /healthz without a token', async () => {
    const res = await ctx.request('GET', '/healthz');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('answers /readyz when the database responds', async () => {
    const res = await ctx.request('GET', '/readyz');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });
});
