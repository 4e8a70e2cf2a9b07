// Docker for the container test (scripts/test-container.mjs) and scripts/ensure-docker.mjs: Debian's docker.io,
// its daemon, and the client to call. Debian's client (/usr/bin/docker) has BuildKit built in, which the Dockerfile
// needs for `RUN --mount=type=secret`; another client first on PATH may lack the buildx plugin that newer clients
// need for BuildKit, so Debian's is preferred for every command.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, openSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Debian's packages the container test needs: the engine, Compose 1.29 and debootstrap (for base images). */
export const DEBIAN_PACKAGES = { docker: 'docker.io', 'docker-compose': 'docker-compose', debootstrap: 'debootstrap' };

/** Where a daemon this script starts writes its log. */
export const DOCKERD_LOG = path.join(os.tmpdir(), 'paineis-dockerd.log');

/**
 * The docker client to run: DOCKER_CLIENT when set, else Debian's (BuildKit built in), else whatever is on PATH.
 * @returns {string}
 */
export function dockerClient() {
  return process.env.DOCKER_CLIENT ?? (existsSync('/usr/bin/docker') ? '/usr/bin/docker' : 'docker');
}

/**
 * Runs the docker client and returns its outcome, output as text.
 * @param {string[]} args
 * @param {{ input?: string | Buffer, timeoutMs?: number, env?: NodeJS.ProcessEnv }} [options]
 * @returns {{ status: number | null, stdout: string, stderr: string }}
 */
export function docker(args, options = {}) {
  const result = spawnSync(dockerClient(), args, {
    input: options.input,
    timeout: options.timeoutMs,
    env: options.env ?? process.env,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: 'pipe',
  });
  return { status: result.status, stdout: result.stdout ?? '', stderr: result.stderr ?? String(result.error ?? '') };
}

/**
 * Whether a daemon answers the client.
 * @returns {boolean}
 */
export function dockerAnswers() {
  return docker(['info', '--format', '{{.ServerVersion}}'], { timeoutMs: 10_000 }).status === 0;
}

/**
 * A command found on PATH or in the system folders, or null.
 * @param {string} name
 * @returns {string | null}
 */
export function commandPath(name) {
  for (const dir of [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/sbin', '/usr/bin']) {
    if (dir && existsSync(path.join(dir, name))) return path.join(dir, name);
  }
  return null;
}

/**
 * Installs what is missing of Debian's docker.io, docker-compose and debootstrap with apt-get, starts the daemon
 * when it does not answer (systemd's unit when systemd runs, else dockerd detached, its log in DOCKERD_LOG), and
 * waits for it. Returns why Docker can't be had, or null when it answers.
 * @param {{ log?: (line: string) => void, waitMs?: number }} [options]
 * @returns {Promise<string | null>}
 */
export async function ensureDocker({ log = console.log, waitMs = 60_000 } = {}) {
  // docker.io is wanted for its client in /usr/bin as much as for its daemon: another client first on PATH (a
  // static download) may have no BuildKit.
  const present = (command) => (command === 'docker' ? existsSync('/usr/bin/docker') : commandPath(command) !== null);
  const missing = Object.entries(DEBIAN_PACKAGES)
    .filter(([command]) => !present(command) || (command === 'docker' && !commandPath('dockerd')))
    .map(([, pkg]) => pkg);
  if (missing.length > 0) {
    if (!existsSync('/usr/bin/apt-get')) return `faltam ${missing.join(', ')} e não há apt-get para instalá-los`;
    if (process.getuid?.() !== 0) return `faltam ${missing.join(', ')}; instale-os como root (apt-get install)`;
    log(`Instalando do Debian: ${missing.join(', ')} (apt-get install)...`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    const installed = spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], {
      stdio: 'inherit',
      env,
    });
    if (installed.status !== 0) return `apt-get install ${missing.join(' ')} falhou`;
  }
  if (dockerAnswers()) return null;

  if (existsSync('/run/systemd/system')) {
    log('Iniciando o Docker (systemctl start docker)...');
    spawnSync('systemctl', ['start', 'docker'], { stdio: 'inherit' });
  } else {
    const dockerd = commandPath('dockerd');
    if (!dockerd) return 'dockerd não encontrado';
    if (process.getuid?.() !== 0) return 'o daemon do Docker não responde, e só root pode iniciá-lo';
    log(`Iniciando o dockerd (log em ${DOCKERD_LOG})...`);
    const out = openSync(DOCKERD_LOG, 'a');
    // Detached, in a session of its own: it outlives this script, as a service would.
    spawn(dockerd, [], { detached: true, stdio: ['ignore', out, out] }).unref();
  }
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline) {
    if (dockerAnswers()) return null;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  return `o daemon do Docker não respondeu em ${waitMs / 1000} s (veja ${DOCKERD_LOG})`;
}
