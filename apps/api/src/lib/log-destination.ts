import pino from 'pino';

/** Bytes gathered before a write: a few dozen lines, so a busy server writes in blocks, not a line at a time. */
const MIN_WRITE_BYTES = 4096;
/** A quiet server's lines wait no longer than this for the block to fill. */
const FLUSH_EVERY_MS = 1000;

export interface LogDestination {
  /** What pino writes to (Fastify's `logger.stream`). */
  stream: pino.DestinationStream;
  /** Resolves once every line written so far has reached the file descriptor. */
  flush: () => Promise<void>;
}

/**
 * The server's log output: stdout (or another file descriptor), written asynchronously and in blocks by pino's
 * sonic-boom, so that logging never blocks the event loop on a slow reader (a pipe, a terminal, a log agent).
 * Lines are held in memory until MIN_WRITE_BYTES are buffered or FLUSH_EVERY_MS have passed; `flush` empties the
 * buffer on a graceful stop, and pino's own exit handler writes what is left synchronously when the process exits
 * by any other way (process.exit, a fatal error).
 */
export function openLogDestination(fd = 1): LogDestination {
  // Lines are kept as bytes: in its default text mode, sonic-boom appends each line to the block being filled and
  // measures the block's byte length, copying the whole block for every line (about 5 kB of garbage a request).
  const boom = pino.destination({ dest: fd, sync: false, minLength: MIN_WRITE_BYTES, contentMode: 'buffer' });
  // In that mode sonic-boom takes bytes, though its types say text.
  const bytes = boom as unknown as { write(chunk: Buffer): boolean };
  const stream = { write: (line: string) => bytes.write(Buffer.from(line)) };
  const timer = setInterval(() => {
    try {
      boom.flush();
    } catch {
      // closed: nothing left to write
    }
  }, FLUSH_EVERY_MS);
  timer.unref();
  return {
    stream,
    flush: () =>
      new Promise((resolve) => {
        // The callback runs once the buffered lines are written; an error (fsync refused on a pipe) changes nothing.
        boom.flush(() => resolve());
      }),
  };
}
