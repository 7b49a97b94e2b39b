/**
 * What the pool (`workerPool.ts`) and its worker threads (`serveHandlers.ts`) say to each other. A worker offers a
 * handler map, one interface listing its calls, as the browser's Comlink workers do (`src/workers/*Api.ts`): the
 * pool's calls are typed by that interface and the worker implements it.
 */

/** A handler map: every call a worker answers, by name. Handlers are synchronous: a call runs start to end. */
export type Handlers<Api> = { [Call in keyof Api]: (...args: never[]) => unknown };

/** Given to each worker at start. */
export interface WorkerStart {
  /**
   * One number the worker keeps up to date as it works (the CSV check: the line it is at), in memory shared with
   * the pool: when a call overruns and its thread is stopped, the pool can still say where it was.
   */
  position: SharedArrayBuffer;
}

export interface WorkerCall {
  id: number;
  method: string;
  args: unknown[];
}

/** Sent once when the worker's modules are loaded, then one answer per call, in the order of the calls. */
export type WorkerMessage = { ready: true } | { id: number; value: unknown } | { id: number; failure: string };
