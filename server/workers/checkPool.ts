import type { CsvReport } from '../../src/domain/csv/index.ts';
import type { CheckedBatch, CheckStep, CsvCheckApi, ServerCsvCheck } from './csvCheckApi.ts';
import { WorkerPool, WorkerStuck, type WorkerLease } from './workerPool.ts';

const CSV_CHECK_WORKER = new URL('./csvCheckWorker.ts', import.meta.url);

/**
 * The worker stops a file's check itself between two lines once its budget is spent; a thread still busy this
 * long after that is stuck inside one line (an expression at the end of its step budget, say) and is stopped.
 */
const STUCK_GRACE_MS = 1_000;

/** A file whose checking took more than its budget: the line it had reached. */
export class CheckOverBudget extends Error {
  constructor(
    readonly lineNumber: number,
    readonly budgetMs: number,
  ) {
    super(`CSV check over its budget of ${budgetMs} ms at line ${lineNumber}`);
  }
}

export interface CheckPoolOptions {
  /** Worker threads (each started when first needed). */
  workers: number;
  /** Time one file's checking may take in a worker (ms). */
  budgetMs: number;
  log?: (line: string) => void;
}

/** The server's worker threads checking CSV files (`csvCheckWorker.ts`), off the request thread. */
export class CheckPool {
  private readonly pool: WorkerPool<CsvCheckApi>;
  private nextFile = 1;

  constructor(private readonly options: CheckPoolOptions) {
    this.pool = new WorkerPool<CsvCheckApi>(CSV_CHECK_WORKER, options.workers, (line) =>
      options.log?.(`CSV check ${line}`),
    );
  }

  /** Begins the check of one file in a worker; `close()` it once done with, whatever the outcome. */
  open(check: Omit<ServerCsvCheck, 'budgetMs'>): FileCheck {
    return new FileCheck(this.pool.lease(), this.nextFile++, { ...check, budgetMs: this.options.budgetMs });
  }

  /** Starts a worker ahead of the first file (a thread loads the engine's modules once, in about a second). */
  warm(): void {
    this.pool.warm();
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/**
 * One file's check in its worker. Calls may be made without waiting for the previous ones (the worker takes them
 * in order): bytes keep coming while the worker checks. A call fails with CheckOverBudget when the file's time is
 * spent, and with WorkerLost when its worker crashed or was stopped.
 */
export class FileCheck {
  private spentMs = 0;
  private readonly budgetMs: number;
  private readonly opened: Promise<unknown>;

  constructor(
    private readonly lease: WorkerLease<CsvCheckApi>,
    private readonly file: number,
    check: ServerCsvCheck,
  ) {
    this.budgetMs = check.budgetMs;
    this.opened = this.step(() => this.lease.call('open', [file, check], this.limit()));
    // Reported by the calls that wait for it.
    this.opened.catch(() => undefined);
  }

  /** Bytes of the file, in order: answers the batches of valid rows they completed. */
  async push(bytes: Uint8Array): Promise<CheckedBatch[]> {
    await this.opened;
    // A copy of its own, moved to the worker: a view into a larger buffer would be cloned with all of it.
    const own = new Uint8Array(bytes);
    const step = await this.step(() =>
      this.lease.call('push', [this.file, own], { ...this.limit(), transfer: [own.buffer] }),
    );
    return step.batches;
  }

  /** The end of the file: its report and its last batches. */
  async finish(): Promise<{ report: CsvReport; batches: CheckedBatch[] }> {
    await this.opened;
    const step = await this.step(() => this.lease.call('finish', [this.file], this.limit()));
    return { report: step.report, batches: step.batches };
  }

  /** Frees the worker (an unfinished check is dropped there). */
  close(): void {
    // Refused only by a worker already lost, which has forgotten the file with everything else.
    this.lease.call('drop', [this.file]).catch(() => undefined);
    this.lease.release();
  }

  /** Past the time left to the file (and a grace), a call is stuck: its thread is stopped. */
  private limit() {
    return { timeLimitMs: () => this.budgetMs - this.spentMs + STUCK_GRACE_MS };
  }

  /**
   * A call's outcome: the time the file has now spent (taken in before the worker's next call asks for its time
   * limit: the pool asks after the answer's reactions), or the end of a file over budget.
   */
  private async step<End extends object>(
    call: () => Promise<CheckStep<End>>,
  ): Promise<Extract<CheckStep<End>, { kind: 'checked' }>> {
    let step: CheckStep<End>;
    try {
      step = await call();
    } catch (error) {
      if (error instanceof WorkerStuck) throw new CheckOverBudget(error.position, this.budgetMs);
      throw error;
    }
    this.spentMs = step.spentMs;
    if (step.kind === 'overBudget') throw new CheckOverBudget(step.lineNumber, this.budgetMs);
    return step as Extract<CheckStep<End>, { kind: 'checked' }>;
  }
}
