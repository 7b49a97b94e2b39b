/** Hands a file made in the page to the browser's download, under `fileName`. */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser reads the blob after the click is handled, not during it.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
