import type { KeptRow } from '@/domain/rows/filterRows';
import { ApiError } from '@/lib/api/apiError';
import type { DownloadedReference } from '@/lib/api/referenceRows';
import { isServerReachable } from '@/lib/connectivity';
import { isUnreachable } from './queryCache';
import { cachedReferenceRows, keepReference } from './referenceCache';

/** The references a file is checked against, as this device can have them now. */
export interface ReferenceCopies {
  rows: Record<string, KeptRow[]>;
  /** References the device has no copy of: their values are for the server to check. */
  missing: string[];
  /** References whose copy is the part its user may read: values outside it are for the server to check. */
  parts: string[];
}

/**
 * Downloads (and keeps) each reference while the server is in reach; out of reach, reads the copy the device keeps,
 * or names it missing; a server failing is out of reach too. A reference the server refuses (a depositor need not read what their file points to) is
 * missing, its old copy left unused: its values are the server's to check. `onDownload` is told each reference
 * before its download starts.
 */
export async function referenceCopies(
  application: string,
  names: readonly string[],
  onDownload?: (name: string) => void,
): Promise<ReferenceCopies> {
  const copies: ReferenceCopies = { rows: {}, missing: [], parts: [] };
  for (const name of names) {
    const answer = isServerReachable() ? await downloaded(application, name, onDownload) : 'unreachable';
    const copy =
      answer === 'refused'
        ? undefined
        : answer === 'unreachable'
          ? await cachedReferenceRows(application, name)
          : answer;
    if (!copy) {
      copies.missing.push(name);
      continue;
    }
    copies.rows[name] = copy.rows;
    if (copy.part) copies.parts.push(name);
  }
  return copies;
}

async function downloaded(
  application: string,
  name: string,
  onDownload?: (name: string) => void,
): Promise<DownloadedReference | 'unreachable' | 'refused'> {
  try {
    onDownload?.(name);
    return await keepReference(application, name);
  } catch (error) {
    if (error instanceof ApiError && !isUnreachable(error) && error.status >= 400 && error.status < 500)
      return 'refused';
    // Out of reach, or a server failing: the device's copy serves, as when offline.
    return 'unreachable';
  }
}
