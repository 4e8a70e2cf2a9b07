import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { testConfig, useTestApp } from '../../test/context.ts';
import { createAdmin } from '../../test/fixtures.ts';

const dist = mkdtempSync(path.join(tmpdir(), 'paineis-web-'));
mkdirSync(path.join(dist, 'assets'));
writeFileSync(path.join(dist, 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>');
writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log("app")');
// As scripts/build.mjs leaves them: each asset beside its brotli and gzip copies.
const bundle = `export const rows = [${Array.from({ length: 400 }, (_, i) => `{ id: ${i}, nome: 'Painel ${i}' }`).join(', ')}];`;
writeFileSync(path.join(dist, 'assets', 'rows-abc123.js'), bundle);
const brotliCopy = brotliCompressSync(bundle);
const gzipCopy = gzipSync(bundle);
writeFileSync(path.join(dist, 'assets', 'rows-abc123.js.br'), brotliCopy);
writeFileSync(path.join(dist, 'assets', 'rows-abc123.js.gz'), gzipCopy);

describe('the built web app', () => {
  const ctx = useTestApp({ config: testConfig({ WEB_DIST_DIR: dist }) });
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  it('serves its files to anyone: the page must load before anyone can sign in', async () => {
    const js = await ctx.request('GET', '/assets/index-abc123.js');
    expect(js.statusCode).toBe(200);
    expect(js.body).toBe('console.log("app")');
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('sends the compressed copy the browser accepts, brotli first, cached for good like the file itself', async () => {
    const asked = (encodings?: string) =>
      ctx.app.inject({
        method: 'GET',
        url: '/assets/rows-abc123.js',
        headers: encodings === undefined ? {} : { 'accept-encoding': encodings },
      });
    const br = await asked('gzip, deflate, br, zstd');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(bundle);
    // The file's own copy, not one compressed for this answer (which would have no length).
    expect(br.rawPayload.equals(brotliCopy)).toBe(true);
    expect(br.headers['content-length']).toBe(String(brotliCopy.length));

    const gzip = await asked('gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(bundle);
    expect(gzip.rawPayload.equals(gzipCopy)).toBe(true);

    const plain = await asked();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(bundle);
  });

  it.each(['/', '/login', '/visualizar/3', '/editar/12', '/classificacoes'])(
    'answers the app route %s with index.html, never cached',
    async (url) => {
      const res = await ctx.request('GET', url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain('<div id="root">');
      expect(res.headers['cache-control']).toBe('no-cache');
    },
  );

  it('answers HEAD on an app route as GET does, so `curl -I` shows the page and its headers', async () => {
    const res = await ctx.app.inject({ method: 'HEAD', url: '/login' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toBeDefined();
    expect(res.body).toBe('');
  });

  it('keeps the API behind the session and answers unknown API paths and missing files with JSON 404', async () => {
    expect((await ctx.request('GET', '/api/paineis')).statusCode).toBe(401);
    const token = await ctx.tokenFor(await createAdmin(ctx.db));
    const unknown = await ctx.request('GET', '/api/nao-existe', { token });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'Rota não encontrada.' });
    const missing = await ctx.request('GET', '/assets/nao-existe.js');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'Rota não encontrada.' });
  });
});
