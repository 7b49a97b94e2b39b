import { useCallback, useRef, useState } from 'react';
import { csvRecordCounter } from '@/domain/csv/recordCounter';
import { ApiError, readErrorBody } from '@/lib/api/apiError';
import { send } from '@/lib/api/client';
import { saveFile } from '@/lib/saveFile';

export interface DownloadState {
  fileName: string;
  received: number;
  /** Lines received so far, header left out: known for CSV files only. */
  lines?: number;
  /** Lines the download holds, when the table counted them. */
  expectedLines?: number;
  status: 'running' | 'done' | 'failed';
  error?: ApiError;
}

const fileNameOf = (response: Response, fallback: string) =>
  /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1] ?? fallback;

/**
 * A download read by the page rather than by the browser, so that the page can say how far it is (lines of a CSV
 * file, bytes of the others), stop it, and say why the server refused it instead of saving its error as a file.
 */
export function useDownload() {
  const [state, setState] = useState<DownloadState | null>(null);
  const running = useRef<AbortController | null>(null);

  const start = useCallback(async (path: string, fallbackName: string, expectedLines?: number) => {
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    const csv = fallbackName.endsWith('.csv');
    setState({ fileName: fallbackName, received: 0, lines: csv ? 0 : undefined, expectedLines, status: 'running' });
    try {
      const response = await send(path, { signal: controller.signal });
      if (!response.ok) throw readErrorBody(response.status, await response.text());
      const fileName = fileNameOf(response, fallbackName);
      const parts: Uint8Array<ArrayBuffer>[] = [];
      const counter = csvRecordCounter();
      let received = 0;
      let shown = 0;
      const reader = response.body!.getReader();
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        parts.push(chunk.value);
        received += chunk.value.length;
        if (csv) counter.add(chunk.value);
        // A screen's worth of updates, not one per chunk of a large file.
        if (performance.now() - shown < 100) continue;
        shown = performance.now();
        setState({ fileName, received, lines: csv ? Math.max(0, counter.records - 1) : undefined, expectedLines, status: 'running' });
      }
      saveFile(new Blob(parts, { type: response.headers.get('Content-Type') ?? 'application/octet-stream' }), fileName);
      setState({ fileName, received, lines: csv ? Math.max(0, counter.records - 1) : undefined, expectedLines, status: 'done' });
    } catch (error) {
      if (controller.signal.aborted) return;
      const failure = error instanceof ApiError ? error : new ApiError(0, 'NETWORK_ERROR');
      setState((kept) => kept && { ...kept, status: 'failed', error: failure });
    } finally {
      if (running.current === controller) running.current = null;
    }
  }, []);

  const cancel = useCallback(() => {
    running.current?.abort();
    running.current = null;
    setState(null);
  }, []);

  return { state, start, cancel, dismiss: () => setState(null) };
}
