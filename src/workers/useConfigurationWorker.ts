import type { ConfigurationWorkerApi } from './configurationWorkerApi';
import { useWorker } from './useWorker';

export const useConfigurationWorker = () =>
  useWorker<ConfigurationWorkerApi>(
    () => new Worker(new URL('./configuration.worker.ts', import.meta.url), { type: 'module' }),
  );
