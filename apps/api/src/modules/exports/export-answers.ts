import { create as contentDisposition } from 'content-disposition';
import type { Exportacao, FormatoExportacao } from '@paineis/contract/personal';

/** What an export route sends: its body and the headers that go with it. */
export interface ExportAnswer<Body> {
  body: Body;
  headers: Record<string, string>;
}

export const FILE_TYPES = {
  PDF: { contentType: 'application/pdf', extension: '.pdf' },
  PPTX: {
    contentType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    extension: '.pptx',
  },
} as const satisfies Record<FormatoExportacao, { contentType: string; extension: string }>;

/**
 * A file name from the panel's name that any system and browser take: letters (accents too), digits, spaces, dots and
 * dashes; anything else becomes a space. content-disposition adds the ASCII fallback and the UTF-8 form.
 */
export function exportFileName(nomePainel: string, extension: string): string {
  const safe = nomePainel
    .normalize('NFC')
    .replace(/[^\p{L}\p{N} ._-]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.]+|[\s.]+$/g, '')
    .slice(0, 120);
  return `${safe || 'painel'}${extension}`;
}

/** The header with the name as is (filename*) and, for old clients, without accents (filename). */
export const attachment = (fileName: string) =>
  contentDisposition(fileName, {
    fallback: fileName
      .normalize('NFD')
      .replace(/\p{M}+/gu, '')
      .replace(/[^\x20-\x7e]/g, '_'),
  });

/** A job's state; while it is under way, Retry-After says when to ask again, as `aguardarSegundos` does. */
export const progressAnswer = (body: Exportacao): ExportAnswer<Exportacao> => ({
  body,
  headers: body.aguardarSegundos === null ? {} : { 'retry-after': String(body.aguardarSegundos) },
});

/** A finished export's file, as an attachment named after its panel, never cached. */
export function fileAnswer(nomePainel: string, formato: FormatoExportacao, bytes: Uint8Array): ExportAnswer<Buffer> {
  const type = FILE_TYPES[formato];
  return {
    body: Buffer.from(bytes),
    headers: {
      'content-type': type.contentType,
      'content-disposition': attachment(exportFileName(nomePainel, type.extension)),
      'cache-control': 'private, no-store',
    },
  };
}
