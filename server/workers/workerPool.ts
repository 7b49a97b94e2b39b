import { Worker } from 'node:worker_threads';
import { workerBundle } from './workerBundle.ts';
import type { Handlers, WorkerCall, WorkerMessage, WorkerStart } from './workerProtocol.ts';

/** The thread answering a call ended before answering: it crashed, or was stopped for another call it ran. */
export class WorkerLost extends Error {}

/** A call ran past its time limit: its thread was stopped (and will be replaced). */
export class WorkerStuck extends Error {
  constructor(
    /** The worker's last reported position (`WorkerStart.position`). */
    readonly position: number,
  ) {
    super(`worker stopped at position ${position}`);
  }
}

export interface CallOptions {
  /** Buffers moved to the worker rather than copied. */
  transfer?: ArrayBuffer[];
  /**
   * How long the call may run once the worker starts it (ms), asked when it starts; past it the thread is
   * stopped and the call fails with WorkerStuck. Without it, a call may run as long as it takes.
   */
  timeLimitMs?: () => number;
}

/** One worker of the pool, kept for a run of calls that share its state (a file's check). */
export interface WorkerLease<Api extends Handlers<Api>> {
  call<Call extends keyof Api & string>(
    method: Call,
    args: Parameters<Api[Call]>,
    options?: CallOptions,
  ): Promise<ReturnType<Api[Call]>>;
  /** The run is over: the worker counts one lease less (once, however often it is called). */
  release(): void;
}

interface Pending {
  id: number;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timeLimitMs?: () => number;
}

/** A worker thread and its calls: sent in order, answered in order, the first one being the one it runs. */
class PooledThread {
  leases = 0;
  ended = false;
  private readonly worker: Worker;
  private readonly position = new Int32Array(new SharedArrayBuffer(4));
  private readonly pending = new Map<number, Pending>();
  private ready = false;
  private nextId = 1;
  private watchdog: NodeJS.Timeout | undefined;

  constructor(
    entry: URL,
    private readonly onEnd: (error: WorkerLost) => void,
  ) {
    const workerData: WorkerStart = { position: this.position.buffer as SharedArrayBuffer };
    // The server's own flags (`--import tsx`, vitest's) are not passed on: the bundle is plain JavaScript. A small
    // young generation: batches are short-lived and many, and each megabyte of it is resident memory.
    this.worker = new Worker(workerBundle(entry), {
      eval: true,
      workerData,
      execArgv: [],
      resourceLimits: { maxYoungGenerationSizeMb: 8 },
    });
    this.worker.unref();
    this.worker.on('message', (message: WorkerMessage) => this.answered(message));
    this.worker.on('error', (error) => this.end(new WorkerLost(`worker failed: ${error.message}`)));
    this.worker.on('exit', (code) => this.end(new WorkerLost(`worker exited with code ${code}`)));
  }

  call(method: string, args: unknown[], options: CallOptions = {}): Promise<unknown> {
    if (this.ended) return Promise.reject(new WorkerLost('worker already ended'));
    const id = this.nextId++;
    try {
      this.worker.postMessage({ id, method, args } satisfies WorkerCall, options.transfer ?? []);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    return new Promise((resolve, reject) => {
      this.pending.set(id, { id, resolve, reject, timeLimitMs: options.timeLimitMs });
      if (this.pending.size > 1) return;
      // A thread with calls to answer keeps the process alive; an idle one does not.
      this.worker.ref();
      this.started(performance.now());
    });
  }

  terminate(): Promise<unknown> {
    this.end(new WorkerLost('worker pool closed'), false);
    return this.worker.terminate();
  }

  private answered(message: WorkerMessage) {
    if ('ready' in message) {
      this.ready = true;
      this.started(performance.now());
      return;
    }
    const call = this.pending.get(message.id);
    if (!call) return;
    this.pending.delete(message.id);
    clearTimeout(this.watchdog);
    if ('failure' in message) call.reject(new Error(message.failure));
    else call.resolve(message.value);
    if (this.pending.size === 0) this.worker.unref();
    else this.started(performance.now());
  }

  /**
   * The first waiting call starts now: its time limit is armed. It is asked for after the answer just given has
   * been taken in (a file's remaining budget counts the call just answered), and counted from now.
   */
  private started(at: number) {
    const [first] = this.pending.values();
    if (!this.ready || !first?.timeLimitMs) return;
    setImmediate(() => {
      if (this.ended || this.pending.values().next().value !== first) return;
      const limit = first.timeLimitMs!() - (performance.now() - at);
      this.watchdog = setTimeout(() => this.stuck(first), Math.max(0, limit));
    });
  }

  private stuck(call: Pending) {
    if (this.ended || this.pending.values().next().value !== call) return;
    const position = Atomics.load(this.position, 0);
    this.pending.delete(call.id);
    call.reject(new WorkerStuck(position));
    this.end(new WorkerLost(`worker stopped: a call overran its time (at position ${position})`));
    void this.worker.terminate();
  }

  /** Fails every waiting call and leaves the pool (once); `unexpected` unless the pool closes. */
  private end(error: WorkerLost, unexpected = true) {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.watchdog);
    for (const call of this.pending.values()) call.reject(error);
    this.pending.clear();
    this.worker.unref();
    if (unexpected) this.onEnd(error);
  }
}

/**
 * A fixed number of worker threads running one TypeScript module (`entry`, which calls `serveHandlers`), each
 * started when first needed and then kept. A run of calls sharing state leases one worker: the one with the fewest
 * leases, the first ones first, so that a lone run always finds the same warm worker and concurrent runs spread
 * over the pool (several runs may share a worker, their calls then taking turns). A thread that crashes, or that
 * is stopped because a call overran its time, fails the calls waiting on it and is replaced at the next lease.
 */
export class WorkerPool<Api extends Handlers<Api>> {
  private readonly threads: Array<PooledThread | undefined>;

  constructor(
    private readonly entry: URL,
    size: number,
    /** Told why a thread ended other than by `close()`. */
    private readonly log: (line: string) => void = () => undefined,
  ) {
    this.threads = Array.from({ length: Math.max(1, size) }, () => undefined);
  }

  /** Starts the first thread now, so that the first call does not wait for its modules to load. */
  warm(): void {
    this.lease().release();
  }

  lease(): WorkerLease<Api> {
    let chosen = 0;
    for (let index = 1; index < this.threads.length; index += 1) {
      if ((this.threads[index]?.leases ?? 0) < (this.threads[chosen]?.leases ?? 0)) chosen = index;
    }
    let thread = this.threads[chosen];
    if (!thread) {
      const started: PooledThread = new PooledThread(this.entry, (error) => {
        this.log(error.message);
        if (this.threads[chosen] === started) this.threads[chosen] = undefined;
      });
      thread = this.threads[chosen] = started;
    }
    const leased = thread;
    leased.leases += 1;
    let released = false;
    return {
      call: (method, args, options) => leased.call(method, args, options) as Promise<never>,
      release() {
        if (released) return;
        released = true;
        leased.leases -= 1;
      },
    };
  }

  /** Threads started so far and still running (for tests and logs). */
  get running(): number {
    return this.threads.filter((thread) => thread && !thread.ended).length;
  }

  async close(): Promise<void> {
    const threads = this.threads.filter((thread): thread is PooledThread => thread !== undefined);
    this.threads.fill(undefined);
    await Promise.all(threads.map((thread) => thread.terminate()));
  }
}
