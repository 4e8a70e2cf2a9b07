interface Entry<T> {
  value: Promise<T>;
  /** ms since epoch after which the value must not be used; +Infinity while it loads. */
  until: number;
  /** Once loaded: the value itself, for synchronous reads (`peek`). */
  loaded?: { value: T };
}

/**
 * Values per key, each kept until the deadline its loader gives. Callers asking for a key while it loads share
 * that one load; a failed load is forgotten at once, so the next caller tries again. Expired entries are swept
 * when the cache is full, and then the oldest go, so it never holds more than `maxEntries`.
 */
export class ExpiringCache<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(private readonly maxEntries = 10_000) {}

  get size(): number {
    return this.entries.size;
  }

  /** The key's value if it is loaded and not expired, without waiting; undefined otherwise (then `get` it). */
  peek(key: string): T | undefined {
    const hit = this.entries.get(key);
    return hit?.loaded && Date.now() < hit.until ? hit.loaded.value : undefined;
  }

  get(key: string, load: () => Promise<{ value: T; until: number }>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit && Date.now() < hit.until) return hit.value;
    const entry: Entry<T> = {
      value: load().then(({ value, until }) => {
        entry.until = until;
        entry.loaded = { value };
        return value;
      }),
      until: Number.POSITIVE_INFINITY,
    };
    this.entries.delete(key);
    this.makeRoom();
    this.entries.set(key, entry);
    entry.value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return entry.value;
  }

  clear(): void {
    this.entries.clear();
  }

  private makeRoom() {
    if (this.entries.size < this.maxEntries) return;
    const now = Date.now();
    for (const [key, entry] of this.entries) if (entry.until <= now) this.entries.delete(key);
    // Still full: the oldest entries go first (a Map keeps insertion order).
    for (const key of this.entries.keys()) {
      if (this.entries.size < this.maxEntries) break;
      this.entries.delete(key);
    }
  }
}
