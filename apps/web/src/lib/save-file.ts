/** How long the file's blob address stays valid after its download starts (some browsers read it late). */
const REVOKE_AFTER_MS = 60_000;

/** Hands a file to the browser's downloads, under `fileName`. */
export function saveFile(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
}
