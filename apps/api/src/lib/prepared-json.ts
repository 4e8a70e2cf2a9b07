import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Below this, compressing costs more than it saves: for prepared answers and the app's own compression alike. */
export const COMPRESS_FROM_BYTES = 1024;

export type Encoding = 'br' | 'gzip';

/**
 * The route options of a route that answers with `reply.sendPrepared`: its answer was compressed once, in advance,
 * so @fastify/compress's hooks, which would run on every request only to find it compressed already, are left off
 * it (docs/decisions/017-request-logs.md).
 */
export const PREPARED_ANSWER = { compress: false } as const;

/**
 * An answer serialised once and served as bytes to every request until its data changes
 * (docs/decisions/009-in-memory-reads.md): its ETag is a hash of the bytes, and each compressed form is made
 * once, on first demand, off the event loop.
 */
export class PreparedJson {
  readonly body: Buffer;
  readonly etag: string;
  private readonly encoded = new Map<Encoding, Promise<Buffer>>();
  /** The compressed forms made so far, for sending without waiting on their promise. */
  private readonly made = new Map<Encoding, Buffer>();

  /** `json`: the value already serialised elsewhere (by the database, say), sent as it is. */
  constructor(value: unknown, json?: string) {
    this.body = Buffer.from(json ?? JSON.stringify(value));
    this.etag = `"${createHash('sha1').update(this.body).digest('base64url')}"`;
  }

  static fromJson(json: string): PreparedJson {
    return new PreparedJson(undefined, json);
  }

  get compressible(): boolean {
    return this.body.length >= COMPRESS_FROM_BYTES;
  }

  /** The bytes in this encoding if they were made already; undefined otherwise (then ask `compressed`). */
  compressedNow(encoding: Encoding): Buffer | undefined {
    return this.made.get(encoding);
  }

  compressed(encoding: Encoding): Promise<Buffer> {
    let bytes = this.encoded.get(encoding);
    if (!bytes) {
      // Brotli's quality 5 compresses about as well as gzip's best, many times faster than its default 11.
      bytes =
        encoding === 'br'
          ? brotli(this.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })
          : gzipped(this.body, { level: 6 });
      this.encoded.set(encoding, bytes);
      bytes.then(
        (made) => this.made.set(encoding, made),
        () => undefined,
      );
    }
    return bytes;
  }
}
