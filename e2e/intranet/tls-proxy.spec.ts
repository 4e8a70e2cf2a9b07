import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { expect, test } from '../fixtures.ts';
import { expectNotBlank, upgrades, watchNetwork } from './network.ts';
import {
  ensureNginxAndOpenssl,
  freePort,
  selfSignedCertificate,
  startNginx,
  startPortal,
  tempFolder,
} from './servers.ts';

// The portal behind a real TLS-terminating reverse proxy: Debian's nginx with the site in paineis.conf.template (the
// one the README quotes) and a self-signed certificate for paineis.intranet, in front of a demo-mode portal started
// with TRUST_PROXY=true. Chromium maps paineis.intranet to 127.0.0.1 and accepts the certificate (project `intranet`).

const NAME = 'paineis.intranet';
const HSTS = 'max-age=31536000; includeSubDomains';

let origin = '';
let httpPort = 0;
let accessLog = '';
const cleanups: (() => unknown)[] = [];

test.beforeAll(async () => {
  // Installing nginx with apt-get on a fresh machine takes a while; everything else takes seconds.
  test.setTimeout(360_000);
  ensureNginxAndOpenssl();
  const [portalPort, httpsPort] = await Promise.all([freePort(), freePort()]);
  httpPort = await freePort();
  const certificates = tempFolder('paineis-e2e-tls-');
  cleanups.push(certificates.remove);
  const { certificate, key } = selfSignedCertificate(certificates.dir, NAME);
  const portal = await startPortal(portalPort, { TRUST_PROXY: 'true' });
  cleanups.push(() => portal.stop());
  const nginx = await startNginx({
    httpsPort: String(httpsPort),
    PAINEIS_HTTPS_LISTEN: `127.0.0.1:${httpsPort}`,
    PAINEIS_HTTP_LISTEN: `127.0.0.1:${httpPort}`,
    PAINEIS_CERTIFICATE: certificate,
    PAINEIS_CERTIFICATE_KEY: key,
    PAINEIS_UPSTREAM: `127.0.0.1:${portalPort}`,
    PAINEIS_ACCESS_LOG: path.join(certificates.dir, 'paineis.access.log'),
  });
  accessLog = path.join(certificates.dir, 'paineis.access.log');
  cleanups.push(() => nginx.stop());
  origin = `https://${NAME}:${httpsPort}`;
});

test.afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

test('on https://paineis.intranet behind nginx the answers carry HSTS and upgrade-insecure-requests, the Microsoft sign-in returns to the https address, and a report opens', async ({
  page,
  context,
}, testInfo) => {
  const network = watchNetwork(page);

  await page.goto(`${origin}/`);
  await expect(page).toHaveURL(`${origin}/login`);
  await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible();

  const authorize = page.waitForRequest((request) => request.url().includes('/oauth2/v2.0/authorize'));
  await page.getByRole('button', { name: 'Entrar com Microsoft' }).click();
  const authorizeUrl = new URL((await authorize).url());
  // The stand-in plays login.microsoftonline.com, over plain http on 127.0.0.1.
  expect(authorizeUrl.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(authorizeUrl.searchParams.get('redirect_uri')).toBe(`${origin}/api/auth/microsoft-callback`);
  // The sign-in's state cookie is Secure, since the portal knows it is reached over https.
  const state = (await context.cookies(`${origin}/api/auth/microsoft-callback`)).find((c) => c.name === 'paineis_oidc');
  expect(state).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax' });

  await page.getByRole('button', { name: /Ana Demonstração/ }).click();
  await page.waitForURL(`${origin}/`);
  await expect(page.getByRole('button', { name: 'Ana Demonstração' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Painéis Power BI' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Visualizar painel Vendas por Região' })).toBeVisible();
  await expectNotBlank(page, testInfo, 'intranet-https.png');

  // The demo report (the stand-in's page, on http://127.0.0.1, which upgrade-insecure-requests leaves alone) opens.
  await page.getByRole('link', { name: 'Visualizar painel Vendas por Região' }).click();
  await expect(page).toHaveURL((url) => url.origin === origin && /^\/visualizar\/\d+$/.test(url.pathname));
  await expect(page.frameLocator('iframe').locator('section:not([hidden]) h1')).toHaveText(
    'Visão geral — Vendas por Região',
  );
  const pages = page.getByRole('navigation', { name: 'Páginas do relatório' });
  await expect(pages.getByRole('button')).toHaveText(['Visão geral', 'Detalhes', 'Tendências']);

  const fromPortal = (await network.answers()).filter((answer) => answer.url.startsWith(`${origin}/`));
  const urls = fromPortal.map((answer) => new URL(answer.url).pathname);
  // The page, its assets, the sign-in's redirects and the API's answers all came through nginx.
  expect(urls).toEqual(
    expect.arrayContaining(['/', '/api/auth/microsoft-login', '/api/auth/microsoft-callback', '/login']),
  );
  expect(urls.some((url) => url.startsWith('/assets/'))).toBe(true);
  expect(urls.some((url) => url.startsWith('/api/paineis'))).toBe(true);
  // Every answer carries HSTS, once (nginx adds none of its own); every policy asks to upgrade, once.
  expect(
    fromPortal.filter((answer) => answer.hsts.length !== 1 || answer.hsts[0] !== HSTS),
    'respostas sem HSTS (ou com mais de um)',
  ).toEqual([]);
  const documents = fromPortal.filter((answer) => answer.csp.length > 0);
  expect(documents.map((answer) => new URL(answer.url).pathname)).toContain('/login');
  expect(
    documents.filter(
      (answer) => !upgrades(answer) || answer.csp.join(';').split('upgrade-insecure-requests').length !== 2,
    ),
    'políticas sem upgrade-insecure-requests (ou com mais de um)',
  ).toEqual([]);
  expect(network.failed, 'pedidos que falharam').toEqual([]);
  // nginx's own log has every request, and not the session token the sign-in brought in the address.
  const logged = readFileSync(accessLog, 'utf8');
  expect(logged).toContain('"GET /login HTTP/');
  expect(logged).not.toMatch(/eyJ[\w-]{10,}\.[\w-]{10,}\./);
});

test('plain http on the proxy sends people to the https address', async () => {
  const answer = await new Promise<{ status: number; location: string | undefined }>((resolve, reject) => {
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port: httpPort,
        path: '/visualizar/1?papel=Vendedor',
        headers: { host: NAME },
        timeout: 5_000,
      },
      (response) => {
        response.resume();
        resolve({ status: response.statusCode ?? 0, location: response.headers.location });
      },
    );
    request.once('timeout', () => request.destroy(new Error('sem resposta do nginx')));
    request.once('error', reject);
    request.end();
  });
  expect(answer).toEqual({ status: 301, location: `https://${NAME}/visualizar/1?papel=Vendedor` });
});
