#!/usr/bin/env node
// Installs the exact dependencies of package-lock.json when they are missing or out of date, so the
// README's commands work on a fresh clone with nothing run before them.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { execSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [major, minor] = process.versions.node.split('.').map(Number);
// Installing and building need 20.19 (Vite); the portal and the tests need 22.13, and where this Node is older
// npm start and npm test fetch Node 24 themselves (scripts/lib/node-runtime.mjs, decision 023).
if (major < 20 || (major === 20 && minor < 19)) {
  console.error(
    `Painéis precisa do Node.js 22.13 ou mais novo (este é ${process.versions.node}); com um Node.js a partir ` +
      'do 20.19, npm start e npm test baixam e usam o Node.js 24 sozinhos.',
  );
  process.exit(1);
}

const lock = readFileSync(path.join(root, 'package-lock.json'));
const hash = createHash('sha256').update(lock).digest('hex');
const stamp = path.join(root, 'node_modules', '.paineis-install');
if (existsSync(stamp) && readFileSync(stamp, 'utf8') === hash) process.exit(0);

console.log('Instalando dependências (npm ci)...');
execSync('npm ci --no-audit --no-fund', { cwd: root, stdio: 'inherit' });
writeFileSync(stamp, hash);
