/**
 * kill -9 of the server in the middle of a large reference upload and in the middle of a publication, on the
 * embedded PGlite and on PostgreSQL (a cluster of our own): after the restart no row of the cut upload and no
 * half-published version is visible, through the API or in SQL; the client's outbox sends the upload again with
 * the same Idempotency-Key and it is applied exactly once; the publication job is taken up again and completes.
 * Then in the middle of the restore of a backup holding that version: after the restart nothing of the restored
 * application is left, and the same backup restores whole.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceUpload } from '../../src/features/data/api.ts';
import {
  APPLICATION,
  VERSIONED_YAML,
  generateMeasures,
  readingsCsv,
  sitesCsv,
  yearDataset,
} from '../bench/versionedData.ts';
import { Operator, datasetQuery, eventually, fileForm } from '../processes/operator.ts';
import { TerrainProcess } from '../processes/terrainServer.ts';
import {
  PUBLISH_ROWS,
  UPLOAD_ROWS,
  faultDatabase,
  outboxClient,
  postgresUnavailable,
  type DatabaseKind,
  type FaultDatabase,
} from './faultHarness.ts';

const kinds: DatabaseKind[] = ['PGlite', 'PostgreSQL'];
/** The longest a claim left by a killed server lasts (the leases of server/http/idempotency.ts and server/jobs/jobs.ts). */
const LEASE_MS = 60_000;

const rowsOf = (db: FaultDatabase, dataName: string, extra = '') =>
  db.sql<{ rows: number; keys: number; rewritten: number }>(
    `select count(*)::int as rows, count(distinct natural_key)::int as keys, count(*) filter (where updated_at <> created_at)::int as rewritten
     from data_rows d join applications a on a.id = d.application_id where a.name = $1 and d.data_name = $2 ${extra}`,
    [APPLICATION, dataName],
  );

describe.each(kinds)('kill -9 of the server on %s', (kind) => {
  const skip = kind === 'PostgreSQL' ? postgresUnavailable() : undefined;
  let db: FaultDatabase;
  let server: TerrainProcess;
  let operator: Operator;

  beforeAll(async () => {
    if (skip) return;
    db = await faultDatabase(kind);
    server = await TerrainProcess.start(db.serverOptions);
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
  }, 180_000);

  afterAll(async () => {
    await server?.kill();
    await db?.destroy();
  });

  it.skipIf(skip)(
    `during a reference upload of ${UPLOAD_ROWS.toLocaleString('en')} rows: none of it is kept, and the outbox replay stores it exactly once`,
    async () => {
      const text = generateMeasures(UPLOAD_ROWS);
      let killed: Promise<void> | undefined;
      const client = outboxClient(operator, (sent, total) => {
        // The last bytes are going out: the server writes the rows once the whole file is in (uploadSpool.ts). It
        // is killed as soon as its write has begun: a transaction holding rows on PostgreSQL, a journaled write on
        // the embedded database (which says so).
        if (killed || sent < total) return;
        killed = eventually('the upload’s write begun', writeBegun, 10 * 60_000, 20).then(() => server.kill('SIGKILL'));
      });
      const logged = server.log.length;
      const writeBegun = async () => {
        if (kind === 'PGlite')
          return server.log.slice(logged).includes('a large write to measures begins') ? true : undefined;
        const [{ holders }] = await db.sql<{ holders: number }>(
          `select count(*)::int as holders from pg_locks l join pg_class c on c.oid = l.relation
           where c.relname = 'data_rows' and l.mode = 'RowExclusiveLock' and l.pid <> pg_backend_pid()`,
        );
        return holders > 0 ? true : undefined;
      };
      const first = await client.outbox.submit(
        referenceUpload(APPLICATION, 'measures', new File([text], 'measures.csv')),
      );
      expect(first.status).toBe('queued');
      await killed;
      const [item] = await client.outbox.items();
      expect(item.lastError?.code).toBe('NETWORK_ERROR');

      if (kind === 'PGlite') {
        // Nobody holds the embedded database now: the test opens it, as the next start will. The embedded write
        // commits its batches under an undo journal (bulkJournal.ts): rows written before the kill are there only
        // with the write still recorded as unfinished, which the next start undoes before serving anything.
        const [{ rows }] = await rowsOf(db, 'measures');
        const [{ writes }] = await db.sql<{ writes: number }>(
          `select count(*)::int as writes from bulk_writes where data_name = 'measures'`,
        );
        if (rows > 0) expect(writes, `${rows} rows left by the kill`).toBe(1);
        expect(await db.sql('select status from idempotency_keys where key = $1', [item.idempotencyKey])).toEqual([
          { status: 'running' },
        ]);
      }
      server = await server.restart();
      operator.on(server);
      if (kind === 'PostgreSQL') expect(await rowsOf(db, 'measures')).toEqual([{ rows: 0, keys: 0, rewritten: 0 }]);
      const page = await operator.call(
        'GET',
        `/applications/${APPLICATION}/references/measures${datasetQuery({ offset: 0, limit: 1 })}`,
      );
      expect(page.status).toBe(200);
      expect(page.body.totalRows).toBe(0);

      // The tab sends the queued upload again (same key) until the server has taken it, at most once the killed
      // request's claim on the key has run out.
      const done = await eventually(
        'the replayed upload',
        async () => {
          client.advance();
          await client.outbox.process();
          const [replayed] = await client.outbox.items();
          return replayed.status === 'done' ? replayed : undefined;
        },
        LEASE_MS + 10 * 60_000,
        1000,
      );
      expect(done.idempotencyKey).toBe(item.idempotencyKey);
      expect(done.result).toMatchObject({ referenceType: 'measures', lineCount: UPLOAD_ROWS, totalRows: UPLOAD_ROWS });
      const after = await operator.call(
        'GET',
        `/applications/${APPLICATION}/references/measures${datasetQuery({ offset: 0, limit: 1 })}`,
      );
      expect(after.body.totalRows).toBe(UPLOAD_ROWS);

      // Sent once more with the same key (the tab died before it recorded the answer): the kept answer, no new work.
      const again = await operator.call(
        'POST',
        `/applications/${APPLICATION}/references/measures`,
        fileForm('measures.csv', text),
        { 'idempotency-key': item.idempotencyKey },
      );
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body).toEqual(done.result);
      if (kind === 'PostgreSQL')
        expect(await rowsOf(db, 'measures')).toEqual([{ rows: UPLOAD_ROWS, keys: UPLOAD_ROWS, rewritten: 0 }]);
      else {
        await server.stop();
        expect(await rowsOf(db, 'measures')).toEqual([{ rows: UPLOAD_ROWS, keys: UPLOAD_ROWS, rewritten: 0 }]);
        server = await server.restart();
        operator.on(server);
      }
    },
    30 * 60_000,
  );

  it.skipIf(skip)(
    `during the publication of a version of ${PUBLISH_ROWS.toLocaleString('en')} rows: nothing half-published, and the job completes after the restart`,
    async () => {
      const { text, rows } = readingsCsv(PUBLISH_ROWS, 1, 2020);
      const deposited = await operator.call(
        'POST',
        `/applications/${APPLICATION}/data/readings`,
        fileForm('readings-2020.csv', text, yearDataset(1, 2020)),
      );
      expect(deposited.status, deposited.text).toBe(201);
      const fileId = deposited.body.fileId as string;
      const requested = await operator.call('POST', `/applications/${APPLICATION}/data/readings`, {
        fileid: fileId,
        topublish: true,
      });
      expect(requested.status).toBe(202);

      // Progress is recorded beside the job's work (on the embedded database, between its short transactions): wait
      // until a good part of the rows is written.
      await eventually(
        'publication under way',
        async () => {
          const state = await operator.call('GET', `/applications/${APPLICATION}/file/${fileId}/publication-state`);
          return state.body.job?.status === 'running' && state.body.job.progress >= 0.3 ? true : undefined;
        },
        5 * 60_000,
        100,
      );
      await server.kill('SIGKILL');

      const fileState = () =>
        db.sql<{ published: boolean; rows: number; job: string }>(
          `select f.published, (select count(*)::int from data_rows r where r.file_id = f.id) as rows,
                (select status from jobs j where j.file_id = f.id order by created_at desc limit 1) as job
         from deposit_files f where f.id = $1`,
          [fileId],
        );
      // The embedded database committed the batches written so far, of a version not yet published: the next start
      // removes them before serving anything (versionRows.ts).
      if (kind === 'PGlite') {
        const [killed] = await fileState();
        expect(killed).toMatchObject({ published: false, job: 'running' });
        expect(killed.rows).toBeGreaterThan(0);
      }
      server = await server.restart();
      operator.on(server);
      if (kind === 'PostgreSQL') expect(await fileState()).toEqual([{ published: false, rows: 0, job: 'running' }]);

      // Until the job is taken up again and ends, every look at the version sees all of it or none of it.
      const final = await eventually(
        'the publication taken up again',
        async () => {
          const state = await operator.call('GET', `/applications/${APPLICATION}/file/${fileId}/publication-state`);
          const consulted = await operator.call(
            'GET',
            `/applications/${APPLICATION}/data/readings/json${datasetQuery({ offset: 0, limit: 1 })}`,
          );
          expect(consulted.status).toBe(200);
          expect(consulted.body.totalRows).toBe(state.body.published ? rows : 0);
          return state.body.job?.status === 'done' ? state.body : undefined;
        },
        LEASE_MS + 10 * 60_000,
        500,
      );
      expect(final).toMatchObject({ published: true, rowCount: rows });
      const versions = await operator.call('GET', `/applications/${APPLICATION}/filesOnRepository/readings`);
      expect(versions.body.filter((v: { published: boolean }) => v.published)).toHaveLength(1);
      if (kind === 'PGlite') await server.stop();
      expect(await fileState()).toEqual([{ published: true, rows, job: 'done' }]);
    },
    30 * 60_000,
  );
  it.skipIf(skip)(
    'during the restore of a backup holding that version: nothing of it after the restart, and it restores again',
    async () => {
      // The test before stops the embedded database's server to read its database.
      if (kind === 'PGlite') {
        server = await server.restart();
        operator.on(server);
      }
      const restored = `${APPLICATION}_restored`;
      const auth = { authorization: `Bearer ${operator.token}` };
      const saved = await fetch(`${operator.url}/api/v1/applications/${APPLICATION}/upload-bundle?withData=true`, {
        headers: auth,
      });
      expect(saved.status).toBe(200);
      const backup = new Uint8Array(await saved.arrayBuffer());
      const restoreForm = () => {
        const form = new FormData();
        form.append('file', new Blob([backup]), 'backup.zip');
        return form;
      };
      const restoring = await fetch(`${operator.url}/api/v1/applications/${restored}/upload-bundle`, {
        method: 'POST',
        headers: auth,
        body: restoreForm(),
      });
      expect(restoring.status).toBe(200);
      // Once the version's deposit is announced, the references' rows are written (committed on the embedded
      // database, in the restore's transaction on PostgreSQL) and the version's are being written.
      const reader = restoring.body!.getReader();
      const decoder = new TextDecoder();
      let seen = '';
      while (!seen.includes('bundle.restore.deposit')) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the restore ended before its deposit: ${seen}`);
        seen += decoder.decode(value, { stream: true });
      }
      await server.kill('SIGKILL');
      await reader.cancel().catch(() => undefined);

      const hidden = () =>
        db.sql<{ applications: number; rows: number }>(
          `select count(*)::int as applications,
                  (select count(*)::int from data_rows d join applications a on a.id = d.application_id where a.name = $1) as rows
           from applications where name = $1`,
          [restored],
        );
      if (kind === 'PGlite') {
        // Batches written before the kill are committed, in an application still hidden: the next start removes it.
        const [left] = await hidden();
        expect(left.rows).toBeGreaterThan(0);
        const [{ marked }] = await db.sql<{ marked: number }>(
          `select count(*)::int as marked from applications where name = $1 and restoring_since is not null`,
          [restored],
        );
        expect(marked, `${left.rows} rows left by the kill`).toBe(1);
      }
      server = await server.restart();
      operator.on(server);
      if (kind === 'PostgreSQL') expect(await hidden()).toEqual([{ applications: 0, rows: 0 }]);
      expect((await operator.call('GET', `/applications/${restored}`)).status).toBe(404);

      const again = await operator.call('POST', `/applications/${restored}/upload-bundle`, restoreForm());
      expect(again.text).toContain('"type":"result"');
      for (const dataPath of ['data/readings/json', 'references/measures']) {
        const [source, copy] = await Promise.all(
          [APPLICATION, restored].map((name) =>
            operator.call('GET', `/applications/${name}/${dataPath}${datasetQuery({ offset: 0, limit: 1 })}`),
          ),
        );
        expect(copy.body.totalRows, dataPath).toBe(source.body.totalRows);
      }
      if (kind === 'PGlite') await server.stop();
      const rowsOfBoth = await db.sql<{ name: string; rows: number }>(
        `select a.name, count(*)::int as rows from data_rows d join applications a on a.id = d.application_id
         where a.name in ($1, $2) group by a.name order by a.name`,
        [APPLICATION, restored],
      );
      expect(rowsOfBoth[1]?.rows).toBe(rowsOfBoth[0]?.rows);
      expect(await db.sql(`select name from applications where restoring_since is not null`)).toEqual([]);
      if (kind === 'PGlite') {
        server = await server.restart();
        operator.on(server);
      }
    },
    30 * 60_000,
  );
});
