import { formatInteger } from '../../../lib/format.ts';

const KB = 1024;
const MB = 1024 * KB;

/** One decimal place with pt-BR's comma: 1.5 → '1,5'. */
const oneDecimal = (n: number) => (Math.round(n * 10) / 10).toFixed(1).replace('.', ',');

/** An attachment's size as a person reads it: '512 bytes', '12,3 KB', '2,4 MB'. */
export function formatFileSize(bytes: number): string {
  if (bytes < KB) return `${formatInteger(bytes)} ${bytes === 1 ? 'byte' : 'bytes'}`;
  if (bytes < MB) return `${oneDecimal(bytes / KB)} KB`;
  return `${oneDecimal(bytes / MB)} MB`;
}
