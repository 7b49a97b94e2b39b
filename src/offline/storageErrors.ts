/**
 * IndexedDB refused to write for lack of room. Dexie wraps the browser's DOMException, and a failed open wraps the
 * failure of the upgrade that met it (OpenFailedError → AbortError → QuotaExceededError): the chain is walked.
 */
export function isStorageFull(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 4; depth++) {
    if ((cause as { name?: string }).name === 'QuotaExceededError') return true;
    cause = (cause as { inner?: unknown }).inner;
  }
  return false;
}
