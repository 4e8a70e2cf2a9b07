import { describe, expect, it } from 'vitest';
import { formatFileSize } from './file-size.ts';

describe('formatFileSize', () => {
  it('writes bytes, KB and MB as pt-BR reads them', () => {
    expect(formatFileSize(1)).toBe('1 byte');
    expect(formatFileSize(512)).toBe('512 bytes');
    expect(formatFileSize(1024)).toBe('1,0 KB');
    expect(formatFileSize(48_640)).toBe('47,5 KB');
    expect(formatFileSize(2_516_582)).toBe('2,4 MB');
  });
});
