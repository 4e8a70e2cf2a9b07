import { execFileSync } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { openLogDestination } from './log-destination.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const lines = (count: number) => Array.from({ length: count }, (_, i) => `{"n":${i},"msg":"requisição ${i} — ação"}\n`);

describe('the log destination', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  const file = () => path.join((dir ??= mkdtempSync(path.join(tmpdir(), 'paineis-log-'))), 'out.log');

  it('writes every line whole and in order, accented text included, once flushed', async () => {
    const out = file();
    const destination = openLogDestination(openSync(out, 'w'));
    const written = lines(2_000);
    for (const line of written) destination.stream.write(line);
    await destination.flush();
    expect(readFileSync(out, 'utf8')).toBe(written.join(''));
  });

  it('writes what is still held in memory when the process exits without a graceful stop', () => {
    const out = file();
    const script = `
      import { openSync } from 'node:fs';
      import { openLogDestination } from ${JSON.stringify(path.join(here, 'log-destination.ts'))};
      const destination = openLogDestination(openSync(${JSON.stringify(out)}, 'w'));
      for (let i = 0; i < 50; i++) destination.stream.write('{"n":' + i + ',"msg":"ação"}\\n');
      process.exit(0);
    `;
    execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: 'pipe' });
    const written = readFileSync(out, 'utf8').trimEnd().split('\n');
    expect(written).toHaveLength(50);
    expect(written[49]).toBe('{"n":49,"msg":"ação"}');
  });
});
