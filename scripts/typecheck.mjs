#!/usr/bin/env node
// Type-checks every workspace with its own tsconfig (the web app has DOM types, the API has Node's).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const projects = [
  'packages/contract',
  'packages/microsoft-api',
  'packages/microsoft-stand-ins',
  'apps/api',
  'apps/web',
  'e2e',
  'bench',
].filter((p) => existsSync(path.join(root, p, 'tsconfig.json')));
let ok = true;
for (const project of projects) {
  const result = spawnSync(path.join(root, 'node_modules', '.bin', 'tsc'), ['-p', project], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) ok = false;
}
process.exit(ok ? 0 : 1);
