import type { KeptRow } from '@/domain/rows/filterRows';
import { ApiError, readErrorBody } from './apiError';
import { send } from './client';

/** A reference as downloaded, with the write version it is a copy of (absent from older servers). */
export interface DownloadedReference {
  rows: KeptRow[];
  version?: number;
  /** The rows are the part of the reference the user may read, not the whole of it. */
  part?: boolean;
}

/** Every row of a reference, read as it streams (to keep it on the device), with the progress. */
export async function downloadReferenceRows(
  application: string,
  reference: string,
  onProgress?: (done: number, total: number) => void,
): Promise<DownloadedReference> {
  const response = await send(
    `/applications/${encodeURIComponent(application)}/references/${encodeURIComponent(reference)}/rows`,
  );
  if (!response.ok) throw readErrorBody(response.status, await response.text());
  if (!response.body) throw new ApiError(response.status, '');
  const total = Number(response.headers.get('X-Total-Count') ?? 0);
  const versionHeader = response.headers.get('X-Entry-Version');
  const version = versionHeader === null ? undefined : Number(versionHeader);
  const rows: KeptRow[] = [];
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let pending = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    pending += decoder.decode(value, { stream: true });
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) if (line) rows.push(JSON.parse(line) as KeptRow);
    onProgress?.(rows.length, total);
  }
  if (pending.trim()) rows.push(JSON.parse(pending) as KeptRow);
  const part = response.headers.get('X-Rows-Part') === 'true';
  return { rows, version: Number.isFinite(version) ? version : undefined, ...(part ? { part } : {}) };
}
