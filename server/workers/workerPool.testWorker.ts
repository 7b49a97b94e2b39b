/** A worker for the pool's tests: calls that answer, take time, fail, hang or crash the thread. */
import { threadId } from 'node:worker_threads';
import { serveHandlers, workerPosition } from './serveHandlers.ts';

export interface TestWorkerApi {
  echo(value: number): number;
  /** Answers after `ms` of work on the thread (calls behind it wait). */
  busy(ms: number, value: number): number;
  fail(message: string): never;
  /** Marks `position` and never answers. */
  hang(position: number): never;
  /** Ends the thread without answering. */
  crash(): never;
  threadId(): number;
}

const position = workerPosition();

serveHandlers<TestWorkerApi>({
  echo: (value) => value,
  busy(ms, value) {
    const until = performance.now() + ms;
    while (performance.now() < until);
    return value;
  },
  fail(message) {
    throw new Error(message);
  },
  hang(at) {
    Atomics.store(position, 0, at);
    for (;;);
  },
  crash() {
    process.exit(3);
  },
  threadId: () => threadId,
});
