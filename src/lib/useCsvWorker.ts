import type { CsvWorkerApi } from '@/workers/csvWorkerApi';
import { useWorker } from './useWorker';

export const useCsvWorker = () => useWorker<CsvWorkerApi>(() => new Worker(new URL('../workers/csv.worker.ts', import.meta.url), { type: 'module' }));
