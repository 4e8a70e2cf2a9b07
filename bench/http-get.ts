import http from 'node:http';

export interface Answer {
  status: number;
  contentType: string | undefined;
  contentEncoding: string | undefined;
  /** As sent: not decompressed. */
  body: Buffer;
}

/** One GET with node:http, which (unlike fetch) leaves the body as it came, compressed or not. */
export function get(url: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent: false }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const header = (name: string) => {
            const value = response.headers[name];
            return Array.isArray(value) ? value.join(', ') : value;
          };
          resolve({
            status: response.statusCode ?? 0,
            contentType: header('content-type'),
            contentEncoding: header('content-encoding'),
            body: Buffer.concat(chunks),
          });
        });
      })
      .on('error', reject);
  });
}
