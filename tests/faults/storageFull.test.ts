/**
 * The database's disk full, on a disk that really fills: a small tmpfs mounted for the test holds the embedded
 * PGlite's whole data folder, or the tablespace of the application's database on our own PostgreSQL cluster (whose
 * folder the server is told with DATABASE_DISK_PATH). The server keeps a reserve on that disk (STORAGE_RESERVE_MB)
 * that uploads, publications and restores never use. An upload or a publication that does not fit stops at the
 * reserve with 507 STORAGE_FULL (the job ends with that code), keeps nothing of itself, harms nothing stored before
 * and gives its space back; one that visibly cannot fit is refused before its body is read. Meanwhile, and while
 * another program fills the disk, reads and sign-ins go on; once there is room, the next upload goes through at once,
 * without a restart.
 *
 * Mounting needs root (CAP_SYS_ADMIN); where it is refused the test says so and does not run.
 */
import { execFile } from 'node:child_process';
import { chown, mkdir, rm, statfs } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APPLICATION,
  VERSIONED_YAML,
  generateMeasures,
  readingsCsv,
  sitesCsv,
  yearDataset,
} from '../bench/versionedData.ts';
import {
  Operator,
  answerBeforeBody,
  datasetQuery,
  eventually,
  fileForm,
  framedForm,
  streamedForm,
} from '../processes/operator.ts';
import { PROCESS_ADMIN, TerrainProcess } from '../processes/terrainServer.ts';
import { faultDatabase, postgresUnavailable, type DatabaseKind, type FaultDatabase } from './faultHarness.ts';

const run = promisify(execFile);
const MB = 1024 * 1024;
/**
 * The reserve. The embedded database's log shares the disk and grows by whole segments: a load's last batch may take
 * one beyond the last check, and giving its space back may need another. PostgreSQL's log is on another disk here.
 */
const RESERVE_MB: Record<DatabaseKind, number> = { PostgreSQL: 16, PGlite: 48 };
/** Room for the catalogue (and for PGlite its log) and the reserve; each test then leaves a few megabytes more. */
const SMALL_DISK: Record<DatabaseKind, string> = { PostgreSQL: '64m', PGlite: '160m' };
/** Rows that do not fit in 8 MB, as a reference upload and as a published version. */
const LARGE_ROWS = 50_000;
const PUBLISHED_ROWS = 60_000;
/**
 * What a refused write may keep of the disk once its space is given back: the index pages it added stay in the
 * indexes' files, for the rows that come next (docs/deploy.md says how much).
 */
const KEPT_MB = 6;
const STORAGE_FULL = { code: 'STORAGE_FULL', message: 'STORAGE_FULL', params: {} };

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
  /** Rows of the measures reference, as every read must find them. */
  let measures = 1000;

  beforeAll(async () => {
    if (skip) return;
    db = await faultDatabase(kind);
    const env: Record<string, string> = { STORAGE_RESERVE_MB: String(RESERVE_MB[kind]) };
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
      env.DATABASE_DISK_PATH = disk;
    }
    server = await TerrainProcess.start({ ...db.serverOptions, env });
    operator = await Operator.of(server);
    const created = await operator.call(
      'POST',
      `/applications/${APPLICATION}`,
      fileForm('stations.yaml', VERSIONED_YAML),
    );
    expect(created.text).toContain('"type":"result"');
    expect(
      (await operator.call('POST', `/applications/${APPLICATION}/references/sites`, fileForm('sites.csv', sitesCsv())))
        .status,
    ).toBe(201);
    expect(
      (
        await operator.call(
          'POST',
          `/applications/${APPLICATION}/references/measures`,
          fileForm('measures.csv', generateMeasures(measures)),
        )
      ).status,
    ).toBe(201);
  }, 180_000);

  afterAll(async () => {
    await server?.kill();
    await db?.cluster?.stop('immediate').catch(() => undefined);
    if (disk) await run('umount', [disk]).catch(() => undefined);
    await db?.destroy();
  });

  const freeBytes = async () => {
    const stats = await statfs(disk);
    return stats.bavail * stats.bsize;
  };
  /** Shrinks the disk to what it holds now, plus the reserve, plus `megabytes` (tmpfs resizes in place; the database is not told). */
  async function leaveRoom(megabytes: number) {
    const used = Number((await run('df', ['--output=used', '-B1', disk])).stdout.split('\n')[1]);
    await run('mount', ['-o', `remount,size=${Math.ceil(used / MB) + RESERVE_MB[kind] + megabytes}m`, disk]);
  }
  /** An operator enlarges the disk; nothing is restarted. */
  const enlarge = () => run('mount', ['-o', 'remount,size=1024m', disk]);

  const uploadPath = `/applications/${APPLICATION}/references/measures`;
  /** An upload sent as a stream, without its size: nothing can be judged before its rows are written. */
  async function streamedUpload(form: FormData, headers: Record<string, string> = {}) {
    const streamed = streamedForm(form);
    const answer = await fetch(`${operator.url}/api/v1${uploadPath}`, {
      ...streamed,
      method: 'POST',
      headers: {
        ...(streamed.headers as Record<string, string>),
        authorization: `Bearer ${operator.token}`,
        ...headers,
      },
    });
    return { status: answer.status, body: await answer.json() };
  }
  /** A page of the reference, the signed-in user, and a new sign-in. */
  async function readAndSignIn() {
    const read = await operator.call('GET', `${uploadPath}${datasetQuery({ offset: 0, limit: 1 })}`);
    const me = await operator.call('GET', '/me');
    const signIn = await fetch(`${server.url}/api/v1/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: PROCESS_ADMIN.login, password: PROCESS_ADMIN.password }),
    });
    await signIn.arrayBuffer();
    return { read: read.status, rows: read.body.totalRows, me: me.status, signIn: signIn.status };
  }
  const answering = () => ({ read: 200, rows: measures, me: 200, signIn: 200 });
  /** Reads and signs in again and again while `work` runs; answers what `work` answered and every look. */
  async function lookingDuring<T>(
    work: Promise<T>,
  ): Promise<{ result: T; looks: Array<Awaited<ReturnType<typeof readAndSignIn>>> }> {
    let running = true;
    const looks: Array<Awaited<ReturnType<typeof readAndSignIn>>> = [];
    const looking = (async () => {
      while (running) looks.push(await readAndSignIn());
    })();
    const result = await work.finally(() => (running = false));
    await looking;
    return { result, looks };
  }

  it.skipIf(skip)(
    'stops an upload that does not fit at the reserve with 507 STORAGE_FULL, keeps what was stored and gives its space back, reads and sign-ins going on; takes it at once once there is room',
    async () => {
      await leaveRoom(8);
      const before = await freeBytes();
      const large = generateMeasures(LARGE_ROWS);
      const { result: refused, looks } = await lookingDuring(
        streamedUpload(fileForm('measures.csv', large), { 'idempotency-key': 'full-disk-upload' }),
      );
      expect(refused).toEqual({ status: 507, body: STORAGE_FULL });
      // Stopped at the reserve: the database never found its disk full.
      expect(server.log).toContain("no room on the database's disk");
      expect(server.log).not.toContain('No space left on device');
      // The refusal is answered once the space is given back.
      expect(await freeBytes()).toBeGreaterThan(before - KEPT_MB * MB);
      expect(looks.length).toBeGreaterThan(0);
      expect(looks).toEqual(looks.map(answering));
      expect(await readAndSignIn()).toEqual(answering());
      expect(server.alive).toBe(true);

      await enlarge();
      // The refusal was not kept against the key: the same request runs again, at once.
      const accepted = await operator.call('POST', uploadPath, fileForm('measures.csv', large), {
        'idempotency-key': 'full-disk-upload',
      });
      expect(accepted.status, accepted.text).toBe(201);
      expect(accepted.body).toMatchObject({ lineCount: LARGE_ROWS, totalRows: LARGE_ROWS });
      measures = LARGE_ROWS;
    },
    10 * 60_000,
  );

  it.skipIf(skip)(
    'refuses an upload too large for the free space with 507 STORAGE_FULL before reading its body',
    async () => {
      await leaveRoom(8);
      const before = await freeBytes();
      const { bytes, contentType } = await framedForm(fileForm('measures.csv', generateMeasures(LARGE_ROWS)));
      const headers = { authorization: `Bearer ${operator.token}`, 'content-type': contentType };
      // The first 64 kB are sent and the rest never is: the answer comes all the same.
      expect(
        await answerBeforeBody(
          `${operator.url}/api/v1${uploadPath}`,
          headers,
          bytes.subarray(0, 64 * 1024),
          bytes.byteLength,
        ),
      ).toEqual({ status: 507, body: STORAGE_FULL });
      expect(await freeBytes()).toBeGreaterThan(before - MB);
      expect(await readAndSignIn()).toEqual(answering());
      await enlarge();
    },
  );

  it.skipIf(skip)(
    'with the disk filled by another program, reads and sign-ins go on and uploads are refused at once; the next upload goes through once there is room',
    async () => {
      await leaveRoom(8);
      // Another program takes all the room and half the reserve.
      const filler = path.join(disk, 'filler');
      await run('fallocate', ['-l', String((await freeBytes()) - (RESERVE_MB[kind] / 2) * MB), filler]);
      expect(await readAndSignIn()).toEqual(answering());
      const small = generateMeasures(100);
      expect(await operator.call('POST', uploadPath, fileForm('measures.csv', small))).toMatchObject({
        status: 507,
        body: STORAGE_FULL,
      });
      expect(await streamedUpload(fileForm('measures.csv', small))).toEqual({ status: 507, body: STORAGE_FULL });
      expect(await readAndSignIn()).toEqual(answering());

      await rm(filler);
      const accepted = await operator.call('POST', uploadPath, fileForm('measures.csv', small));
      expect(accepted.status, accepted.text).toBe(201);
      expect(accepted.body).toMatchObject({ lineCount: 100, totalRows: measures });
      await enlarge();
    },
  );

  it.skipIf(skip)(
    'never half-publishes a version that does not fit, gives its space back, and publishes it whole once there is room',
    async () => {
      const { text, rows } = readingsCsv(PUBLISHED_ROWS, 3, 2022);
      const deposited = await operator.call(
        'POST',
        `/applications/${APPLICATION}/data/readings`,
        fileForm('readings-2022.csv', text, yearDataset(3, 2022)),
      );
      expect(deposited.status, deposited.text).toBe(201);
      const fileId = deposited.body.fileId as string;
      await leaveRoom(8);
      const before = await freeBytes();
      const publish = () =>
        operator.call('POST', `/applications/${APPLICATION}/data/readings`, { fileid: fileId, topublish: true });
      /** What users see of the version. */
      const state = async () => {
        const current = await operator.call('GET', `/applications/${APPLICATION}/file/${fileId}/publication-state`);
        const consulted = await operator.call(
          'GET',
          `/applications/${APPLICATION}/data/readings/json${datasetQuery({ offset: 0, limit: 1 })}`,
        );
        return { published: current.body.published, job: current.body.job, totalRows: consulted.body.totalRows };
      };
      expect((await publish()).status).toBe(202);
      // Every look finds the version unpublished and none of its rows, until the job records that it failed.
      const looks: Array<Awaited<ReturnType<typeof state>>> = [];
      const failed = await eventually(
        'the failed publication',
        async () => {
          const now = await state();
          looks.push(now);
          return now.job?.status === 'failed' ? now : undefined;
        },
        5 * 60_000,
        1000,
      );
      expect(failed).toMatchObject({
        published: false,
        totalRows: 0,
        job: { status: 'failed', error: { code: 'STORAGE_FULL' } },
      });
      expect(looks.filter((look) => look.published || look.totalRows !== 0 || look.job?.status === 'done')).toEqual([]);
      // A job's refusal is not waited for by anyone: its space comes back shortly after.
      await eventually(
        'the space of the refused publication',
        async () => ((await freeBytes()) > before - KEPT_MB * MB ? true : undefined),
        60_000,
      );
      expect(await readAndSignIn()).toEqual(answering());
      expect(server.alive).toBe(true);

      await enlarge();
      expect((await publish()).status).toBe(202);
      const done = await eventually(
        'the publication once there is room',
        async () => ((await state()).job?.status === 'done' ? state() : undefined),
        5 * 60_000,
        1000,
      );
      expect(done).toMatchObject({ published: true, totalRows: rows });
    },
    15 * 60_000,
  );

  it.skipIf(skip || kind === 'PGlite')(
    'on a PostgreSQL whose disk this instance cannot see, answers the database’s own refusal with 507, reads going on, and takes the next upload once there is room',
    async () => {
      // Without DATABASE_DISK_PATH no reserve is kept: the upload runs until PostgreSQL finds its disk full.
      const blind = await TerrainProcess.start({
        databaseUrl: db.serverOptions.databaseUrl,
        env: { STORAGE_RESERVE_MB: String(RESERVE_MB[kind]) },
      });
      try {
        const throughBlind = await Operator.of(blind);
        await leaveRoom(8);
        const large = generateMeasures(LARGE_ROWS * 2);
        expect(await throughBlind.call('POST', uploadPath, fileForm('measures.csv', large))).toMatchObject({
          status: 507,
          body: STORAGE_FULL,
        });
        expect(blind.log).toContain('No space left on device');
        // A sign-in needs room for its session, which a disk full to the last byte may not have: reads need none.
        const read = await throughBlind.call('GET', `${uploadPath}${datasetQuery({ offset: 0, limit: 1 })}`);
        expect({ status: read.status, rows: read.body.totalRows }).toEqual({ status: 200, rows: measures });
        expect((await throughBlind.call('GET', '/me')).status).toBe(200);

        await enlarge();
        const accepted = await throughBlind.call('POST', uploadPath, fileForm('measures.csv', large));
        expect(accepted.status, accepted.text).toBe(201);
        expect(accepted.body).toMatchObject({ lineCount: LARGE_ROWS * 2, totalRows: LARGE_ROWS * 2 });
        measures = LARGE_ROWS * 2;
      } finally {
        await blind.kill();
        await enlarge();
      }
    },
  );
});
