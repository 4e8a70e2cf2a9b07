// A server of the benchmark in a process of its own (bench/portal-process.ts, bench/bare-process.ts), driven over
// Node's IPC channel: it sends { type: 'ready', ... } once listening, answers each { id, ... } request with
// { id, value } or { id, error }, and on { type: 'stop' } closes everything and exits.
import { fork, type ChildProcess } from 'node:child_process';

interface Reply {
  id?: number;
  type?: string;
  value?: unknown;
  error?: string;
}

export interface BenchProcess<Ready> {
  child: ChildProcess;
  /** What it sent when ready. */
  ready: Ready;
  /** Sends a request; resolves with its answer, rejects with its error or when the process ends first. */
  ask<T>(message: Record<string, unknown>): Promise<T>;
  /** Asks it to stop; kills it if it has not exited within `timeoutMs`. */
  stop(timeoutMs?: number): Promise<void>;
}

/**
 * Starts `script` (TypeScript, through tsx) with `args`; its stdout goes to `stdout` (a file descriptor, or
 * 'ignore'), its stderr to this process's. Resolves once it says it is ready.
 */
export function startBenchProcess<Ready>(
  script: string,
  args: string[],
  stdout: number | 'ignore',
  /** More flags for node (a profiling run: --cpu-prof, --trace-gc). */
  nodeFlags: string[] = [],
): Promise<BenchProcess<Ready>> {
  const child = fork(script, args, {
    execArgv: ['--import', 'tsx', ...nodeFlags],
    stdio: ['ignore', stdout, 'inherit', 'ipc'],
  });
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const gone = (what: string) =>
    new Error(`${what}: o processo ${script} terminou (${child.exitCode ?? child.signalCode})`);

  return new Promise((resolveReady, rejectReady) => {
    child.on('message', (message: Reply) => {
      if (message.type === 'ready') {
        resolveReady({
          child,
          ready: message.value as Ready,
          ask<T>(request: Record<string, unknown>) {
            const id = nextId++;
            return new Promise<T>((resolve, reject) => {
              pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
              child.send({ ...request, id });
            });
          },
          async stop(timeoutMs = 30_000) {
            if (child.exitCode !== null || child.signalCode !== null) return;
            child.send({ type: 'stop' });
            const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
            await exited;
            clearTimeout(timer);
          },
        });
      } else if (message.type === 'failed') {
        rejectReady(new Error(message.error));
      } else if (message.id !== undefined) {
        const waiting = pending.get(message.id);
        pending.delete(message.id);
        if (message.error !== undefined) waiting?.reject(new Error(message.error));
        else waiting?.resolve(message.value);
      }
    });
    void exited.then(() => {
      rejectReady(gone('antes de ficar pronto'));
      for (const waiting of pending.values()) waiting.reject(gone('antes de responder'));
      pending.clear();
    });
  });
}

/**
 * The child's side: sends `ready()`'s value once it resolves, answers each request with `handle`, and on 'stop'
 * runs `stop` and exits.
 */
export async function serveBenchProcess<Ready>(
  ready: () => Promise<Ready>,
  handle: (message: Record<string, unknown>) => Promise<unknown>,
  stop: () => Promise<void>,
): Promise<void> {
  const send = (message: Reply) => process.send!(message);
  const message = (error: unknown) => (error instanceof Error ? (error.stack ?? error.message) : String(error));
  try {
    send({ type: 'ready', value: await ready() });
  } catch (error) {
    send({ type: 'failed', error: message(error) });
    await stop().catch(() => undefined);
    process.exit(1);
  }
  process.on('message', (request: Record<string, unknown> & { id?: number; type?: string }) => {
    if (request.type === 'stop') {
      void stop().finally(() => process.exit(0));
      return;
    }
    handle(request).then(
      (value) => send({ id: request.id, value }),
      (error: unknown) => send({ id: request.id, error: message(error) }),
    );
  });
  // The parent gone (a crash, Ctrl-C): stop too.
  process.on('disconnect', () => void stop().finally(() => process.exit(0)));
}
