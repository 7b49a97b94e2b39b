import type { ConfigurationWorkerApi } from '@/workers/configurationWorkerApi';
import { useWorker } from '@/lib/useWorker';

export const useConfigurationWorker = () =>
  useWorker<ConfigurationWorkerApi>(() => new Worker(new URL('../../../workers/configuration.worker.ts', import.meta.url), { type: 'module' }));
