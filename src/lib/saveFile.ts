/**
 * Hands a file to the browser's download, under `fileName`; `onRead` runs once the browser has had time to read it
 * (what kept the file may then let it go).
 */
export function saveFile(blob: Blob, fileName: string, onRead?: () => void): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser reads the blob after the click is handled, not during it, and copies it into the downloads folder
  // at the pace of the device's storage, after a "Save as" dialog when the person asked for one: the file is kept
  // long after, a large file longer. Nothing tells the page when the copy is done.
  setTimeout(
    () => {
      URL.revokeObjectURL(url);
      onRead?.();
    },
    10 * 60_000 + blob.size / 10_000,
  );
}
