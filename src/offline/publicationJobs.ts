import { liveQuery } from 'dexie';
import type { Version } from '@/contract/deposits';
import { ApiError } from '@/lib/api/apiError';
import type { TerrainDatabase } from './db';
import type { JobOutcome, OutboxItem } from './outboxTypes';

/** The publication job a change's answer names (202 of a publication, or of a deposit published at once). */
export interface PublicationJob {
  application: string;
  fileId: string;
  jobId: string;
  publish: boolean;
}

export function publicationJobOf(item: Pick<OutboxItem, 'summary' | 'result'>): PublicationJob | undefined {
  const result = item.result as { fileId?: unknown; jobId?: unknown; topublish?: unknown } | null | undefined;
  const application = item.summary.name;
  if (!result || typeof result !== 'object' || application === undefined) return undefined;
  const { fileId, jobId, topublish } = result;
  if (typeof fileId !== 'string' || typeof jobId !== 'string') return undefined;
  return { application, fileId, jobId, publish: topublish !== false };
}

/** The state of a version's latest job, as the server tells it (`/file/{id}/publication-state`). */
export type ReadJobState = (application: string, fileId: string, signal?: AbortSignal) => Promise<Pick<Version, 'job'>>;

export interface PublicationFollowing {
  readState: ReadJobState;
  /** Who is signed in: someone else's changes on a shared tablet are followed, and told, in their own session. */
  signedIn: () => string | undefined;
  /** Told once per change, in the one tab (or page) that recorded the outcome. */
  onEnd: (item: OutboxItem, job: PublicationJob, outcome: JobOutcome) => void;
  pause?: (ms: number) => Promise<void>;
  /** The tabs' shared locks (the Web Locks API where the browser has it): one tab reads a job's state at a time. */
  locks?: JobLocks;
  /** The time, for the tabs to tell a recent read of a job's state (tests give their own). */
  now?: () => number;
}

/** What the followers need of the Web Locks API: a lock granted to one tab at a time, the others waiting for it. */
export interface JobLocks {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

const FIRST_WAIT_MS = 1_000;
/** The longest wait between two reads of a job still running: a publication of a large file runs for minutes. */
const RUNNING_LONGEST_WAIT_MS = 5_000;
/** The longest wait after a read that failed (offline, the server down). */
const LONGEST_WAIT_MS = 30_000;
/** A read of a job's state that has not answered by then is given up (and tried again), freeing its lock. */
const READ_TIMEOUT_MS = 30_000;

/** What the server's state of the version says of the change's job, or undefined while it runs. */
export function outcomeOf(state: Pick<Version, 'job'>, jobId: string): JobOutcome | undefined {
  const job = state.job;
  if (!job || job.id !== jobId) return { status: 'superseded' };
  if (job.status === 'done') return { status: 'done' };
  if (job.status === 'failed') return { status: 'failed', error: job.error ?? { code: 'INTERNAL_ERROR', params: {} } };
  return undefined;
}

/**
 * Follows the publication jobs of applied changes made by the person signed in whose outcome is not known yet,
 * whoever sent them (this page or the service worker, maybe while the page was closed), until each ends, records the
 * outcome on the change and tells `onEnd`: a publication queued offline that fails on the server (a period
 * overlapping another version's, a reference changed since the deposit) is otherwise only seen by someone who opens
 * its versions.
 */
export function startPublicationFollowing(db: TerrainDatabase, following: PublicationFollowing): () => void {
  const pause = following.pause ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const followed = new Set<number>();
  const madeBySignedIn = (item: OutboxItem) => item.owner === undefined || item.owner === following.signedIn();
  let stopped = false;

  /** Records the outcome unless another tab did: only the one that records it tells it. */
  const record = (id: number, outcome: JobOutcome) =>
    db.transaction('rw', db.outbox, async () => {
      const item = await db.outbox.get(id);
      if (!item || item.jobOutcome) return undefined;
      await db.outbox.update(id, { jobOutcome: outcome });
      return item;
    });

  const locks = following.locks ?? (globalThis.navigator as { locks?: JobLocks } | undefined)?.locks;
  const now = following.now ?? Date.now;
  const tab = globalThis.crypto.randomUUID();

  /**
   * One look at the job, under its lock (one tab at a time, the lock held for one read only): the tab that read it
   * last goes on reading it; another reads it only once that tab has not for longer than its own wait (closed,
   * asleep). Ends with `ended` once nothing more is to be told, `read` when the job still runs, `failed` when the
   * server could not be asked.
   */
  const look = async (id: number, job: PublicationJob, wait: number): Promise<'ended' | 'read' | 'failed'> => {
    const item = await db.outbox.get(id);
    // Forgotten with the day's applied changes, or told by another tab; or someone else signed in meanwhile (the
    // change is followed again in its owner's session).
    if (!item || item.jobOutcome || !madeBySignedIn(item)) return 'ended';
    if (item.jobRead && item.jobRead.by !== tab && now() - item.jobRead.at < wait) return 'read';
    await db.outbox.update(id, { jobRead: { by: tab, at: now() } });
    let outcome: JobOutcome | undefined;
    try {
      outcome = outcomeOf(
        await following.readState(job.application, job.fileId, AbortSignal.timeout(READ_TIMEOUT_MS)),
        job.jobId,
      );
    } catch (error) {
      // The version was deleted, or its state is not for this person (a published version their reading right
      // does not cover whole): nothing more can be told of its job.
      if (error instanceof ApiError && error.status === 404) outcome = { status: 'superseded' };
      else if (error instanceof ApiError && error.status === 403) outcome = { status: 'unreadable' };
      else return 'failed';
    }
    if (!outcome) return 'read';
    const told = await record(id, outcome);
    if (told) following.onEnd(told, job, outcome);
    return 'ended';
  };
  const lookAlone = (id: number, job: PublicationJob, wait: number) =>
    locks ? locks.request(`terrain-publication-job-${id}`, () => look(id, job, wait)) : look(id, job, wait);

  async function follow(id: number, job: PublicationJob) {
    for (let wait = FIRST_WAIT_MS; !stopped;) {
      const step = await lookAlone(id, job, wait);
      if (step === 'ended') return;
      await pause(wait);
      wait = Math.min(wait * 2, step === 'failed' ? LONGEST_WAIT_MS : RUNNING_LONGEST_WAIT_MS);
    }
  }

  const subscription = liveQuery(() => db.outbox.where('status').equals('done').toArray()).subscribe({
    next: (items) => {
      for (const item of items) {
        const job = publicationJobOf(item);
        if (!job || item.jobOutcome || followed.has(item.id!) || !madeBySignedIn(item)) continue;
        followed.add(item.id!);
        void follow(item.id!, job)
          .catch(() => undefined)
          .finally(() => followed.delete(item.id!));
      }
    },
    error: () => undefined,
  });
  return () => {
    stopped = true;
    subscription.unsubscribe();
  };
}
