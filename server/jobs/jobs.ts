import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { JobStatus, Schema } from '../db/schema.ts';
import type { JobError } from '../../src/contract/deposits.ts';
import { InvalidInput, Refusal } from '../../src/domain/errors/refusal.ts';
import { databaseFailure } from '../http/databaseErrors.ts';

export interface Job {
  id: string;
  kind: string;
  application_id: string;
  file_id: string | null;
  requested_by: string | null;
  payload: Record<string, unknown>;
}

/** `progress` records how far the job is; it never waits (a job may call it from inside its own transaction). */
export type JobHandler = (job: Job, progress: (value: number) => void) => Promise<void>;

/** A job that finished badly keeps a code and parameters the UI can translate. */
export class JobFailure extends Error {
  constructor(
    readonly code: string,
    readonly params: Record<string, unknown> = {},
  ) {
    super(code);
  }
}

/**
 * A running job's claim lasts this long and is renewed while the job runs; the job of a server that died is taken
 * up again by any instance (the restarted one included) once the claim has run out. Its transaction died with the
 * server, so the job starts from the state it found.
 */
const CLAIM_SECONDS = 60;
const RENEW_EVERY_MS = 20_000;

export async function enqueueJob(
  db: Kysely<Schema>,
  job: Omit<Job, 'id' | 'payload'> & { payload?: Record<string, unknown> },
): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('jobs')
    .values({
      id,
      kind: job.kind,
      application_id: job.application_id,
      file_id: job.file_id,
      requested_by: job.requested_by,
      payload: JSON.stringify(job.payload ?? {}),
      status: 'queued',
    })
    .execute();
  return id;
}

/** Takes the oldest waiting job, locking it so that no other instance takes it too. */
async function claim(db: Kysely<Schema>): Promise<Job | undefined> {
  const claimed = await sql<Job>`
    update jobs set status = 'running', locked_until = now() + make_interval(secs => ${CLAIM_SECONDS}), updated_at = now()
    where id = (
      select id from jobs
      where status = 'queued' or (status = 'running' and locked_until < now())
      order by created_at
      for update skip locked
      limit 1
    )
    returning id, kind, application_id, file_id, requested_by, payload`.execute(db);
  return claimed.rows[0];
}

async function finish(db: Kysely<Schema>, id: string, status: JobStatus, error?: JobError) {
  await db
    .updateTable('jobs')
    .set({
      status,
      progress: status === 'done' ? 1 : undefined,
      error: error ? JSON.stringify(error) : null,
      locked_until: null,
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .execute();
}

/**
 * Runs jobs in the background of a server instance: polls for work, runs one job at a time, records its
 * progress and outcome. Several instances on one database share the queue safely (row locks).
 */
export function startJobRunner(db: Kysely<Schema>, handlers: Record<string, JobHandler>, log: (line: string) => void) {
  let stopped = false;
  let wake: (() => void) | undefined;
  let running: Promise<void> = Promise.resolve();

  /** Whether the last claim failed: the database away is logged once, not at every poll. */
  let claimFailing = false;
  const claimed = () =>
    claim(db).then(
      (job) => ((claimFailing = false), job),
      (error: unknown) => {
        if (!claimFailing) log(`jobs cannot be claimed (tried again every second): ${(error as Error).message}`);
        claimFailing = true;
        return undefined;
      },
    );

  async function loop() {
    while (!stopped) {
      const job = await claimed();
      if (!job) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 1000).unref();
        });
        continue;
      }
      const handler = handlers[job.kind];
      const renewal = setInterval(() => {
        void db
          .updateTable('jobs')
          .set({ locked_until: sql<Date>`now() + make_interval(secs => ${CLAIM_SECONDS})` })
          .where('id', '=', job.id)
          .where('status', '=', 'running')
          .execute()
          // The claim lasts several renewals: one missed is made good by the next; all missed, the job is taken
          // up again from the start, as after a crash.
          .catch(() => undefined);
      }, RENEW_EVERY_MS);
      renewal.unref();
      try {
        if (!handler) throw new JobFailure('UNKNOWN_JOB', { kind: job.kind });
        await handler(job, (value) => {
          // On the embedded database a job's transaction may hold the one connection: the update then queues behind it.
          // Progress is a hint for the screen: a lost update is overwritten by the next or by the outcome.
          void db
            .updateTable('jobs')
            .set({ progress: value, updated_at: new Date() })
            .where('id', '=', job.id)
            .execute()
            .catch(() => undefined);
        });
        await finish(db, job.id, 'done');
      } catch (error) {
        const database = databaseFailure(error);
        // The database went away under the job (its transaction with it), or chose it as a deadlock's victim: the
        // claim runs out and the job is taken up again from the start, by this instance or another (a publication
        // run again does what it had not done: publication.ts).
        if (database?.code === 'DATABASE_UNAVAILABLE' || database?.code === 'WRITE_CONFLICT') continue;
        const known = error instanceof JobFailure || error instanceof Refusal || error instanceof InvalidInput;
        const failure = known
          ? { code: error.code, params: error.params }
          : { code: database?.code ?? 'INTERNAL_ERROR', params: {} };
        if (!known) log(`job ${job.kind} ${job.id} failed: ${(error as Error).message}`);
        await finish(db, job.id, 'failed', failure).catch((finishing: unknown) =>
          // The claim then runs out and the job is run again, failing again or not: nothing is lost.
          log(`job ${job.kind} ${job.id} could not be marked failed: ${(finishing as Error).message}`),
        );
      } finally {
        clearInterval(renewal);
      }
    }
  }

  running = loop();
  return {
    /** Looks for work now instead of at the next poll. */
    poke() {
      wake?.();
    },
    async stop() {
      stopped = true;
      wake?.();
      await running;
    },
  };
}

export type JobRunner = ReturnType<typeof startJobRunner>;
