#!/usr/bin/env node
// Debian's Chromium (and openssl, for the benchmark's local HTTPS), installed with apt-get when missing: the
// browser journeys and the web benchmark drive /usr/bin/chromium and never download a browser of their own.
// Run by the test command and by npm run bench, so either works first on a fresh machine.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromiumPath } from './lib/chromium.mjs';

const chromium = chromiumPath();
const missing = [...(existsSync(chromium) ? [] : ['chromium']), ...(existsSync('/usr/bin/openssl') ? [] : ['openssl'])];
if (missing.length > 0 && existsSync('/usr/bin/apt-get')) {
  console.log(`\nInstalando do Debian: ${missing.join(', ')} (apt-get install)...`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  spawnSync('apt-get', ['install', '-y', '-qq', ...missing], { stdio: 'inherit', env });
}
if (!existsSync(chromium)) console.warn(`Chromium não encontrado em ${chromium}: as etapas no navegador vão falhar.`);
