import { parentPort, workerData } from 'node:worker_threads';
import type { Handlers, WorkerCall, WorkerMessage, WorkerStart } from './workerProtocol.ts';
import { yieldToRequests } from './yieldToRequests.ts';

/** Answers the pool's calls with `handlers`, one call at a time in the order they came. */
export function serveHandlers<Api extends Handlers<Api>>(handlers: Api): void {
  const port = parentPort;
  if (!port) throw new Error('serveHandlers runs in a worker thread');
  yieldToRequests();
  port.on('message', (call: WorkerCall) => {
    let answer: WorkerMessage;
    try {
      // The pool typed the arguments against Api when it sent them (WorkerPool.call).
      answer = { id: call.id, value: handlers[call.method as keyof Api](...(call.args as never[])) };
    } catch (error) {
      // A failure the handler did not turn into a value is a bug: its text goes to the server's log.
      answer = { id: call.id, failure: error instanceof Error ? (error.stack ?? error.message) : String(error) };
    }
    port.postMessage(answer);
  });
  port.postMessage({ ready: true } satisfies WorkerMessage);
}

/** The number this worker keeps up to date for the pool (see `WorkerStart.position`). */
export function workerPosition(): Int32Array {
  return new Int32Array((workerData as WorkerStart).position);
}
