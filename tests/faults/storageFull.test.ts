/**
 * The database's disk full, on a disk that really fills (the database gets ENOSPC): a small tmpfs mounted for the
 * test holds the embedded PGlite's whole data folder, or the tablespace of the application's database on our own
 * PostgreSQL cluster. An upload or a publication that does not fit answers 507 STORAGE_FULL (the job ends with
 * that code), keeps nothing of itself and harms nothing stored before; reads go on; once the disk is larger the
 * same upload goes through, without a restart.
 *
 * Mounting needs root (CAP_SYS_ADMIN); where it is refused the test says so and does not run.
 */
import { execFile } from 'node:child_process';
import { chown, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPLICATION, VERSIONED_YAML, generateMeasures, readingsCsv, sitesCsv, yearDataset } from '../bench/versionedData.ts';
import { Operator, datasetQuery, eventually, fileForm } from '../processes/operator.ts';
import { TerrainProcess } from '../processes/terrainServer.ts';
import { faultDatabase, postgresUnavailable, type DatabaseKind, type FaultDatabase } from './faultHarness.ts';

const run = promisify(execFile);
/** Room for the catalogue (and for PGlite its write-ahead log); each test then leaves a few megabytes free. */
const SMALL_DISK: Record<DatabaseKind, string> = { PostgreSQL: '40m', PGlite: '64m' };
/** Rows that do not fit in 8 MB, as a reference upload and as a published version. */
const LARGE_ROWS = 50_000;
const PUBLISHED_ROWS = 60_000;

async function mountable(): Promise<string | undefined> {
  if (process.getuid?.() !== 0) return 'mounting a small tmpfs needs root';
  try {
    await run('mount', ['--version']);
    return undefined;
  } catch {
    return 'no mount command';
  }
}

const cannotMount = await mountable();
if (cannotMount) console.log(`storage-full tests not run: ${cannotMount}`);
const kinds: DatabaseKind[] = ['PGlite', 'PostgreSQL'];

describe.each(kinds)('the database disk full on %s', (kind) => {
  const skip = cannotMount ?? (kind === 'PostgreSQL' ? postgresUnavailable() : undefined);
  let db: FaultDatabase;
  let server: TerrainProcess;
  let operator: Operator;
  let disk: string;

  /** SQL on the database; the embedded one is opened by the test while the server is stopped. */
  async function sql<T>(text: string, values?: unknown[]): Promise<T[]> {
    if (kind === 'PostgreSQL') return db.sql<T>(text, values);
    await server.stop();
    try {
      return await db.sql<T>(text, values);
    } finally {
      server = await server.restart();
      operator.on(server);
    }
  }

  beforeAll(async () => {
    if (skip) return;
    db = await faultDatabase(kind);
    if (kind === 'PGlite') {
      disk = db.serverOptions.dataDir!;
      await run('mount', ['-t', 'tmpfs', '-o', `size=${SMALL_DISK[kind]},mode=0700`, 'terrain-small-disk', disk]);
    } else {
      const cluster = db.cluster!;
      disk = path.join(cluster.folder, 'small-disk');
      await mkdir(disk);
      await run('mount', ['-t', 'tmpfs', '-o', `size=${SMALL_DISK[kind]},mode=0700`, 'terrain-small-disk', disk]);
      await chown(disk, cluster.owner.uid, cluster.owner.gid);
      await cluster.sql(`create tablespace small location '${disk}'`);
      await cluster.sql('alter database terrain set tablespace small');
    }
    server = await TerrainProcess.start(db.serverOptions);
    operator = await Operator.of(server);
    const created = await operator.call('POST', `/applications/${APPLICATION}`, fileForm('stations.yaml', VERSIONED_YAML));
    expect(created.text).toContain('"type":"result"');
    expect((await operator.call('POST', `/applications/${APPLICATION}/references/sites`, fileForm('sites.csv', sitesCsv()))).status).toBe(201);
    expect((await operator.call('POST', `/applications/${APPLICATION}/references/measures`, fileForm('measures.csv', generateMeasures(1000)))).status).toBe(201);
  }, 180_000);

  afterAll(async () => {
    await server?.kill();
    await db?.cluster?.stop('immediate').catch(() => undefined);
    if (disk) await run('umount', [disk]).catch(() => undefined);
    await db?.destroy();
  });

  /** Shrinks the disk to what it holds now plus `megabytes` (tmpfs resizes in place; PostgreSQL is not told). */
  async function leaveRoom(megabytes: number) {
    const used = Number((await run('df', ['--output=used', '-B1', disk])).stdout.split('\n')[1]);
    await run('mount', ['-o', `remount,size=${Math.ceil(used / 1048576) + megabytes}m`, disk]);
  }
  /** An operator enlarges the disk; nothing is restarted. */
  const enlarge = () => run('mount', ['-o', 'remount,size=1024m', disk]);

  it.skipIf(skip)('refuses an upload that does not fit with 507 STORAGE_FULL, keeps what was stored, and takes it once there is room', async () => {
    await leaveRoom(8);
    const large = generateMeasures(LARGE_ROWS);
    const refused = await operator.call('POST', `/applications/${APPLICATION}/references/measures`, fileForm('measures.csv', large), { 'idempotency-key': 'full-disk-upload' });
    if (kind === 'PostgreSQL' || refused.status === 507) expect(refused.body).toEqual({ code: 'STORAGE_FULL', message: 'STORAGE_FULL', params: {} });
    else {
      // PGlite could not write its log: its session broke (it is opened again by the next request).
      expect(refused.body).toEqual({ code: 'DATABASE_UNAVAILABLE', message: 'DATABASE_UNAVAILABLE', params: { retryAfterSeconds: 5 } });
    }
    expect(server.alive).toBe(true);
    // PostgreSQL keeps serving reads; the embedded database, which cannot even be opened on a full disk, says so.
    const read = await operator.call('GET', `/applications/${APPLICATION}/references/measures${datasetQuery({ offset: 0, limit: 1 })}`);
    if (kind === 'PostgreSQL' || read.status === 200) expect(read.body.totalRows).toBe(1000);
    else expect(read.body.code).toBe('STORAGE_FULL');

    await enlarge();
    const stored = await sql<{ rows: number; counted: number }>(
      `select (select count(*)::int from data_rows d where d.application_id = a.id and d.data_name = 'measures') as rows,
              (select line_count::int from entry_counts c where c.application_id = a.id and c.data_name = 'measures') as counted
       from applications a where a.name = $1`,
      [APPLICATION],
    );
    expect(stored).toEqual([{ rows: 1000, counted: 1000 }]);
    // The refusal was not kept against the key: the same request runs again. (When PGlite broke, the key could
    // not even be freed: it stays claimed until its lease runs out, and the retry goes through then.)
    const key = await sql<{ status: string }>(`select status from idempotency_keys where key = 'full-disk-upload'`);
    expect(key).toEqual(kind === 'PGlite' && key.length > 0 ? [{ status: 'running' }] : []);
    const accepted = await eventually(
      'the same upload once there is room',
      async () => {
        const answer = await operator.call('POST', `/applications/${APPLICATION}/references/measures`, fileForm('measures.csv', large), { 'idempotency-key': 'full-disk-upload' });
        if (answer.status === 409) return undefined;
        return answer;
      },
      2 * 60_000,
      5000,
    );
    expect(accepted.status, accepted.text).toBe(201);
    expect(accepted.body).toMatchObject({ lineCount: LARGE_ROWS, totalRows: LARGE_ROWS });
  }, 10 * 60_000);

  it.skipIf(skip)('never half-publishes a version that does not fit, and publishes it whole once there is room', async () => {
    const { text, rows } = readingsCsv(PUBLISHED_ROWS, 3, 2022);
    await leaveRoom(8);
    const deposited = await operator.call('POST', `/applications/${APPLICATION}/data/readings`, fileForm('readings-2022.csv', text, yearDataset(3, 2022)));
    expect(deposited.status, deposited.text).toBe(201);
    const fileId = deposited.body.fileId as string;
    const publish = () => operator.call('POST', `/applications/${APPLICATION}/data/readings`, { fileid: fileId, topublish: true });
    /** What users see of the version; the embedded database may answer 507 while it cannot be opened. */
    const state = async () => {
      const current = await operator.call('GET', `/applications/${APPLICATION}/file/${fileId}/publication-state`);
      const consulted = await operator.call('GET', `/applications/${APPLICATION}/data/readings/json${datasetQuery({ offset: 0, limit: 1 })}`);
      if (kind === 'PGlite' && (current.status === 507 || consulted.status === 507)) return { published: false, job: undefined, totalRows: 0, full: true };
      return { published: current.body.published, job: current.body.job, totalRows: consulted.body.totalRows };
    };
    expect((await publish()).status).toBe(202);
    // While the disk is full, every look finds the version unpublished and none of its rows.
    for (let look = 0; look < 5; look += 1) {
      const now = await state();
      expect(now).toMatchObject({ published: false, totalRows: 0 });
      expect(now.job?.status).not.toBe('done');
      await new Promise((resolve) => setTimeout(resolve, 5000));
    }
    if (kind === 'PostgreSQL') {
      // The write-ahead log is on another disk: the job records its end, a failure the user can read.
      expect(await eventually('the failed publication', async () => ((await state()).job?.status === 'failed' ? state() : undefined), 5 * 60_000)).toMatchObject({
        published: false,
        totalRows: 0,
        job: { status: 'failed', error: { code: 'STORAGE_FULL' } },
      });
    }
    // (The embedded database keeps its log on the full disk too: the job cannot even record that it failed. It
    // stays claimed, and is taken up again once there is room.)
    expect(server.alive).toBe(true);

    await enlarge();
    if ((await state()).job?.status === 'failed') expect((await publish()).status).toBe(202);
    const done = await eventually('the publication once there is room', async () => ((await state()).job?.status === 'done' ? state() : undefined), 5 * 60_000, 1000);
    expect(done).toMatchObject({ published: true, totalRows: rows });
    expect(await sql(`select count(*)::int as rows from data_rows where file_id = $1`, [fileId])).toEqual([{ rows }]);
  }, 15 * 60_000);
});
