import { useCallback, useRef, useState } from 'react';
import { csvRecordCounter } from '@/domain/csv/recordCounter';
import { ApiError, readErrorBody } from '@/lib/api/apiError';
import { send } from '@/lib/api/client';
import { saveStreamed } from '@/lib/streamedSave';

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
 * file, bytes of the others), stop it, and say why the server refused it instead of saving its error as a file. It
 * is written to the device as it arrives, not held in memory.
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
      const counter = csvRecordCounter();
      const lines = () => (csv ? Math.max(0, counter.records - 1) : undefined);
      let received = 0;
      let shown = 0;
      await saveStreamed(response.body!, {
        fileName,
        type: response.headers.get('Content-Type') ?? 'application/octet-stream',
        expectedBytes: Number(response.headers.get('Content-Length')) || undefined,
        signal: controller.signal,
        onChunk(chunk) {
          received += chunk.length;
          if (csv) counter.add(chunk);
          // A screen's worth of updates, not one per chunk of a large file.
          if (performance.now() - shown < 100) return;
          shown = performance.now();
          setState({ fileName, received, lines: lines(), expectedLines, status: 'running' });
        },
      });
      setState({ fileName, received, lines: lines(), expectedLines, status: 'done' });
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
