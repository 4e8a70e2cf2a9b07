import { expect, vi } from 'vitest';

/** Captures the CSV files a screen downloads (lib/csv.ts): their names and their text, after its byte order mark. */
export function captureDownloads() {
  const blobs = new Map<string, Blob>();
  const files: { name: string; url: string }[] = [];
  let next = 0;
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    const url = `blob:csv-${next++}`;
    blobs.set(url, blob as Blob);
    return url;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  // jsdom does not download; the link's click is where the browser would.
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    files.push({ name: this.download, url: this.href });
  });
  return {
    files,
    async text(index: number) {
      const blob = blobs.get(files[index]!.url)!;
      expect(blob.type).toBe('text/csv;charset=utf-8');
      const bytes = new Uint8Array(await blob.arrayBuffer());
      // UTF-8's byte order mark, which tells Excel the encoding.
      expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    },
  };
}
