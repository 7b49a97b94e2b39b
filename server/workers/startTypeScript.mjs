// The first module of every worker thread: registers tsx, then loads the worker's TypeScript module. Written in
// JavaScript because nothing reads TypeScript yet at this point. `--import tsx` in the worker's execArgv is not
// enough on Node 20: the hooks it registers do not apply to the worker's own entry module (ERR_UNKNOWN_FILE_EXTENSION),
// whether the server runs under `node --import tsx` or inside vitest, which has no tsx at all.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
