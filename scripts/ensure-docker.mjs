#!/usr/bin/env node
// Debian's Docker for the container test (scripts/test-container.mjs), as scripts/ensure-browser.mjs does for
// Chromium: docker.io, docker-compose and debootstrap installed with apt-get when missing, and the daemon started
// when it does not answer. Exits non-zero, saying why, when Docker can't be had.
import { dockerClient, ensureDocker } from './lib/docker.mjs';

const why = await ensureDocker();
if (why) {
  console.error(`Docker indisponível: ${why}`);
  process.exit(1);
}
console.log(`Docker pronto (cliente ${dockerClient()}).`);
