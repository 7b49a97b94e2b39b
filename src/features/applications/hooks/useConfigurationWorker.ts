import { useEffect, useRef } from 'react';
import * as Comlink from 'comlink';
import type { ConfigurationWorkerApi } from '@/workers/configurationWorkerApi';

/**
 * The configuration engine in a web worker: validating a large file never freezes the page, and it works
 * offline because the worker script is part of the precached shell.
 */
export function useConfigurationWorker(): () => Comlink.Remote<ConfigurationWorkerApi> {
  const worker = useRef<{ raw: Worker; api: Comlink.Remote<ConfigurationWorkerApi> } | null>(null);
  useEffect(
    () => () => {
      worker.current?.raw.terminate();
      worker.current = null;
    },
    [],
  );
  return () => {
    if (!worker.current) {
      const raw = new Worker(new URL('../../../workers/configuration.worker.ts', import.meta.url), { type: 'module' });
      worker.current = { raw, api: Comlink.wrap<ConfigurationWorkerApi>(raw) };
    }
    return worker.current.api;
  };
}
