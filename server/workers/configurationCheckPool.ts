import type { ConfigurationResult } from '../../src/domain/configuration/index.ts';
import type { ConfigurationCheckApi } from './configurationCheckApi.ts';
import { WorkerPool, WorkerStuck } from './workerPool.ts';

const CONFIGURATION_CHECK_WORKER = new URL('./configurationCheckWorker.ts', import.meta.url);

/** A configuration whose validation took more than its budget: its thread was stopped. */
export class ConfigurationOverBudget extends Error {
  constructor(readonly budgetMs: number) {
    super(`configuration validation over its budget of ${budgetMs} ms`);
  }
}

export interface ConfigurationCheckPoolOptions {
  /** Worker threads (each started when first needed). */
  workers: number;
  /** Time one configuration's validation may take in a worker (ms). */
  budgetMs: number;
  log?: (line: string) => void;
}

/**
 * The server's worker threads validating configurations, off the request thread: a large or hostile file costs
 * a worker its time, never the other users theirs. Threads of their own rather than the CSV checks': a
 * configuration never waits behind a file checked in the same worker, nor a file behind a configuration.
 */
export class ConfigurationCheckPool {
  private readonly pool: WorkerPool<ConfigurationCheckApi>;

  constructor(private readonly options: ConfigurationCheckPoolOptions) {
    this.pool = new WorkerPool<ConfigurationCheckApi>(CONFIGURATION_CHECK_WORKER, options.workers, (line) =>
      options.log?.(`configuration check ${line}`),
    );
  }

  /**
   * The validation of `bytes` (left untouched: a copy is moved to the worker). Fails with ConfigurationOverBudget
   * past the budget, and with WorkerLost when the worker crashed.
   */
  async validate(bytes: Uint8Array, fileName: string): Promise<ConfigurationResult> {
    const lease = this.pool.lease();
    const own = new Uint8Array(bytes);
    try {
      return await lease.call('validate', [own, fileName], {
        transfer: [own.buffer],
        timeLimitMs: () => this.options.budgetMs,
      });
    } catch (error) {
      if (error instanceof WorkerStuck) throw new ConfigurationOverBudget(this.options.budgetMs);
      throw error;
    } finally {
      lease.release();
    }
  }

  /** Starts a worker ahead of the first configuration. */
  warm(): void {
    this.pool.warm();
  }

  /** Threads started so far and still running (for tests). */
  get running(): number {
    return this.pool.running;
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
