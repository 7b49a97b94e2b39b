import type { CsvWorkerApi } from './csvWorkerApi';
import { useWorker } from './useWorker';

export const useCsvWorker = () =>
  useWorker<CsvWorkerApi>(() => new Worker(new URL('./csv.worker.ts', import.meta.url), { type: 'module' }));
