import { useEffect, useRef } from 'react';
import * as Comlink from 'comlink';

/**
 * A Comlink worker started on first use and stopped with the component: heavy checks (configurations, CSV
 * files) run without freezing the page, and offline too since worker scripts are part of the precached shell.
 */
export function useWorker<Api>(start: () => Worker): () => Comlink.Remote<Api> {
  const worker = useRef<{ raw: Worker; api: Comlink.Remote<Api> } | null>(null);
  useEffect(
    () => () => {
      worker.current?.raw.terminate();
      worker.current = null;
    },
    [],
  );
  return () => {
    if (!worker.current) {
      const raw = start();
      worker.current = { raw, api: Comlink.wrap<Api>(raw) };
    }
    return worker.current.api;
  };
}
