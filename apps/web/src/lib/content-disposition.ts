/**
 * The file name of a Content-Disposition header (RFC 6266): `filename*=UTF-8''…` first, else `filename="…"`. A few
 * lines rather than a library: the npm `content-disposition` package imports Node's `path`, which the browser lacks.
 * Whatever could name a folder is replaced, so the name is only ever a file's.
 */
export function fileNameFrom(header: string | null): string | undefined {
  if (!header) return undefined;
  let name: string | undefined;
  const extended = /filename\*\s*=\s*([\w-]+)'[^']*'([^;]+)/i.exec(header);
  if (extended && extended[1]!.toLowerCase() === 'utf-8') {
    try {
      name = decodeURIComponent(extended[2]!.trim());
    } catch {
      // A badly encoded name: the plain one, if any.
    }
  }
  if (name === undefined) {
    const plain = /(?:^|;)\s*filename\s*=\s*(?:"((?:\\.|[^"\\])*)"|([^;]+))/i.exec(header);
    name = plain ? (plain[1]?.replace(/\\(.)/g, '$1') ?? plain[2]!.trim()) : undefined;
  }
  const safe = name?.replace(/[\\/]/g, '_').trim();
  return safe ? safe : undefined;
}
