#!/usr/bin/env node
// npm start, after its prestart (install when needed, build when a source changed): the compiled server, on this
// Node.js when it is one the portal supports (22.13 or newer), else on Node.js 24 fetched once into node_modules
// (scripts/lib/node-runtime.mjs, decision 023), so that the README's quick start works on a machine whose Node
// is 20, which no longer has security fixes. Arguments after `npm start --` go to the server.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MINIMUM_NODE, SUITE_NODE_MAJOR, nodeRuntime, nodeVersion, supportedNode } from './lib/node-runtime.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const server = path.join(root, 'apps', 'api', 'dist', 'server.js');

if (supportedNode(process.versions.node)) {
  // This Node will do: the server runs in this very process, as `node --enable-source-maps` would run it.
  process.setSourceMapsEnabled(true);
  await import(pathToFileURL(server).href);
} else {
  let node;
  try {
    node = nodeRuntime(SUITE_NODE_MAJOR);
  } catch (error) {
    console.error(
      `Painéis precisa do Node.js ${MINIMUM_NODE} ou mais novo (este é ${process.versions.node}), e não foi ` +
        `possível obter o Node.js ${SUITE_NODE_MAJOR}: ${error instanceof Error ? error.message : error}`,
    );
    process.exit(1);
  }
  console.log(
    `O Node.js ${process.versions.node} desta máquina não recebe mais correções de segurança; ` +
      `o portal roda no Node.js ${nodeVersion(node)} (${path.relative(root, node)}).`,
  );
  const child = spawn(node, ['--enable-source-maps', server, ...process.argv.slice(2)], {
    cwd: process.cwd(),
    stdio: 'inherit',
  });
  // Ctrl-C reaches the whole process group, the server included: this process only waits for the server's
  // graceful exit (a second SIGINT from here would make it stop at once). A SIGTERM or SIGHUP sent to this
  // process alone is passed on.
  process.on('SIGINT', () => {});
  for (const signal of ['SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.once('exit', (code) => process.exit(code ?? 1));
}
