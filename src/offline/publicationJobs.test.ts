import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { Version } from '@/contract/deposits';
import { ApiError } from '@/lib/api/apiError';
import { TerrainDatabase } from './db';
import type { JobOutcome, OutboxItem } from './outboxTypes';
import { publicationJobOf, startPublicationFollowing, type JobLocks, type PublicationJob } from './publicationJobs';

let databases = 0;
const freshDb = () => new TerrainDatabase(`publication-jobs-test-${++databases}`);

const publication = (result: unknown, status: OutboxItem['status'] = 'done'): OutboxItem => ({
  idempotencyKey: globalThis.crypto.randomUUID(),
  kind: 'deposit.publish',
  summary: { name: 'alps', dataType: 'counts', file: 'counts.csv', action: 'publish' },
  resource: 'dataset:alps/counts/{}',
  request: { method: 'POST', path: '/applications/alps/data/counts', headers: {}, body: { type: 'none' } },
  streamed: false,
  createdAt: 1,
  attempts: 1,
  nextAttemptAt: 0,
  status,
  size: 0,
  result,
  doneAt: 1,
});

type JobState = Pick<Version, 'job'>;
const job = (id: string, status: NonNullable<Version['job']>['status'], error: JobState['job'] = null): JobState => ({
  job: { id, kind: 'publish', status, progress: 0.5, error: error as never },
});

/** The server's answers for the version's state, in turn; a pause resolves at once and is kept. */
function following(db: TerrainDatabase, answers: Array<JobState | Error>, locks?: JobLocks) {
  const told: Array<{ item: OutboxItem; job: PublicationJob; outcome: JobOutcome }> = [];
  let reads = 0;
  const waits: number[] = [];
  let resolveTold: () => void = () => undefined;
  const toldOnce = new Promise<void>((resolve) => (resolveTold = resolve));
  const stop = startPublicationFollowing(db, {
    signedIn: () => 'ana',
    readState: async () => {
      const answer = answers[Math.min(reads++, answers.length - 1)];
      if (answer instanceof Error) throw answer;
      return answer;
    },
    onEnd: (item, followedJob, outcome) => {
      told.push({ item, job: followedJob, outcome });
      resolveTold();
    },
    pause: async (ms) => {
      waits.push(ms);
    },
    locks,
    now: () => 1_000_000,
  });
  return { told, toldOnce, stop, reads: () => reads, waits };
}

describe('the publication job of an applied change', () => {
  it('is named by its answer, and only by one naming a version and a job', () => {
    expect(publicationJobOf(publication({ fileId: 'f1', jobId: 'j1', topublish: false }))).toEqual({
      application: 'alps',
      fileId: 'f1',
      jobId: 'j1',
      publish: false,
    });
    expect(publicationJobOf(publication({ fileId: 'f1', rowCount: 3 }))).toBeUndefined();
    // A version already in the state asked for is answered with it (200), without a job to follow.
    expect(publicationJobOf(publication({ fileId: 'f1', topublish: true, published: true }))).toBeUndefined();
    expect(publicationJobOf(publication(null))).toBeUndefined();
    expect(publicationJobOf(publication('"f1"'))).toBeUndefined();
  });

  it('is followed through network failures until it fails, its outcome kept on the change and told once', async () => {
    const db = freshDb();
    const id = await db.outbox.add(publication({ fileId: 'f1', jobId: 'j1', topublish: true }));
    const overlap = { code: 'overlappingpublishedversion', params: { files: ['older.csv'] } };
    const first = following(db, [
      job('j1', 'queued'),
      new ApiError(0, 'NETWORK_ERROR'),
      new ApiError(503, 'DATABASE_UNAVAILABLE'),
      job('j1', 'running'),
      job('j1', 'failed', { code: overlap.code, params: overlap.params } as never),
    ]);
    await first.toldOnce;
    first.stop();
    expect(first.reads()).toBe(5);
    expect(first.told).toHaveLength(1);
    expect(first.told[0]!.outcome).toEqual({ status: 'failed', error: overlap });
    expect(first.told[0]!.job).toMatchObject({ fileId: 'f1', jobId: 'j1', publish: true });
    expect((await db.outbox.get(id))!.jobOutcome).toEqual({ status: 'failed', error: overlap });

    // Two tabs, or the page opened again: the outcome known is not asked again; a new job is told by one of them.
    const tabs = [following(db, [job('j2', 'done')]), following(db, [job('j2', 'done')])];
    await db.outbox.add(publication({ fileId: 'f2', jobId: 'j2' }));
    await Promise.race(tabs.map((tab) => tab.toldOnce));
    for (const tab of tabs) tab.stop();
    const told = tabs.flatMap((tab) => tab.told);
    expect(told.map((t) => [t.job.jobId, t.outcome.status])).toEqual([['j2', 'done']]);
  });

  it('ends without a word of failure when a later job replaced it, the version was deleted or its state may not be read', async () => {
    const db = freshDb();
    const replaced = await db.outbox.add(publication({ fileId: 'f1', jobId: 'j1' }));
    const first = following(db, [job('j9', 'failed')]);
    await first.toldOnce;
    first.stop();
    expect(first.told[0]!.outcome).toEqual({ status: 'superseded' });
    expect((await db.outbox.get(replaced))!.jobOutcome).toEqual({ status: 'superseded' });

    const deleted = await db.outbox.add(publication({ fileId: 'f2', jobId: 'j2' }));
    const second = following(db, [new ApiError(404, 'NO_SUCH_FILE')]);
    await second.toldOnce;
    second.stop();
    expect((await db.outbox.get(deleted))!.jobOutcome).toEqual({ status: 'superseded' });

    // Published, the version's state is for those who may read it whole: the publisher may not be one of them.
    const hidden = await db.outbox.add(publication({ fileId: 'f3', jobId: 'j3' }));
    const third = following(db, [new ApiError(403, 'NO_RIGHT_FOR_WHOLE_VERSION')]);
    await third.toldOnce;
    third.stop();
    expect((await db.outbox.get(hidden))!.jobOutcome).toEqual({ status: 'unreadable' });
  });

  it('leaves alone changes without a job, changes not applied yet and changes of someone else', async () => {
    const db = freshDb();
    await db.outbox.add(publication({ fileId: 'f1', rowCount: 10 }));
    await db.outbox.add(publication(undefined, 'queued'));
    // Ben's, made on this shared tablet: followed in his session.
    await db.outbox.add({ ...publication({ fileId: 'f2', jobId: 'j2' }), owner: 'ben' });
    const watcher = following(db, [job('j1', 'done')]);
    // A change applied later with a job is the first one read.
    await db.outbox.add({ ...publication({ fileId: 'f3', jobId: 'j3' }), owner: 'ana' });
    await watcher.toldOnce;
    watcher.stop();
    expect(watcher.reads()).toBe(1);
  });

  it('is read less often the longer it runs, and by one tab at a time', async () => {
    // Locks as the browser grants them: one holder per name, the others waiting in turn. The time stands still:
    // each tab's pause is over at once, and a read is always recent to the other tab.
    const held = new Map<string, Promise<unknown>>();
    const locks: JobLocks = {
      request(name, callback) {
        const turn = (held.get(name) ?? Promise.resolve()).then(callback);
        held.set(
          name,
          turn.catch(() => undefined),
        );
        return turn;
      },
    };
    const db = freshDb();
    await db.outbox.add(publication({ fileId: 'f1', jobId: 'j1' }));
    const long = [...Array.from({ length: 6 }, () => job('j1', 'running')), job('j1', 'done')];
    const tabs = [following(db, long, locks), following(db, long, locks)];
    await Promise.race(tabs.map((tab) => tab.toldOnce));
    await Promise.all(held.values());
    for (const tab of tabs) tab.stop();
    expect(tabs.map((tab) => tab.reads()).sort()).toEqual([0, 7]);
    // The tab that reads waits longer each time; the other leaves the job to it, the lock held for one read only.
    expect(tabs.find((tab) => tab.reads() === 7)!.waits).toEqual([1_000, 2_000, 4_000, 5_000, 5_000, 5_000]);
    expect(tabs.flatMap((tab) => tab.told)).toHaveLength(1);
  });

  it('is read by another tab once the one that read it has not for longer than its wait (closed, asleep)', async () => {
    const db = freshDb();
    const recent = await db.outbox.add({
      ...publication({ fileId: 'f1', jobId: 'j1' }),
      jobRead: { by: 'a closed tab', at: 1_000_000 - 500 },
    });
    const left = await db.outbox.add({
      ...publication({ fileId: 'f2', jobId: 'j2' }),
      jobRead: { by: 'a closed tab', at: 1_000_000 - 60_000 },
    });
    const tab = following(db, [job('j2', 'done')]);
    await tab.toldOnce;
    tab.stop();
    expect(tab.told.map((t) => t.job.jobId)).toEqual(['j2']);
    expect((await db.outbox.get(left))!.jobOutcome).toEqual({ status: 'done' });
    // Read half a second ago by another tab: left to it for now.
    expect((await db.outbox.get(recent))!.jobOutcome).toBeUndefined();
  });
});
