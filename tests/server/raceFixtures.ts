import pg from 'pg';
import type { ServerCsvCheck } from '../../server/workers/csvCheckApi.ts';
import { expect } from 'vitest';
import { VERSIONED_YAML, sitesCsv } from '../bench/versionedData.ts';
import { sql } from 'kysely';
import { createApplication, HABITATS_CSV, startDataServer, uploadReference, type DataServer } from './dataFixtures.ts';
import { HttpClient } from './httpClient.ts';
import { startInstanceProcess, type InstanceProcess } from './instanceProcesses.ts';

/**
 * Resolves once the instance has read the reference rows (and the configuration) a file of `dataName` is checked
 * against: the moment from which a change by someone else is one the upload cannot have seen. Answers the rows read,
 * as the checking worker gets them.
 */
export function referencesRead(data: DataServer, dataName: string): Promise<ServerCsvCheck['references']> {
  const checks = data.server.server.ctx.checks;
  const open = checks.open.bind(checks);
  return new Promise((read) => {
    checks.open = (check: Omit<ServerCsvCheck, 'budgetMs'>) => {
      if (check.dataName === dataName) {
        checks.open = open;
        read(check.references);
      }
      return open(check);
    };
  });
}

/**
 * An upload of `csv` to `url` (under /api/v1) whose client sends its first half, then the rest once `release` is
 * called: a tablet on a poor network. Its rows are written only once its last byte has come.
 */
export function heldUpload(data: DataServer, url: string, csv: string) {
  const encoder = new TextEncoder();
  const boundary = '----terrain-held';
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const half = csv.indexOf('\n', csv.length / 2) + 1;
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(
        encoder.encode(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="data.csv"\r\nContent-Type: text/csv\r\n\r\n${csv.slice(0, half)}`,
        ),
      );
      await released;
      controller.enqueue(encoder.encode(`${csv.slice(half)}\r\n--${boundary}--\r\n`));
      controller.close();
    },
  });
  const answer = fetch(`${data.server.url}/api/v1${url}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${data.token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    body,
    duplex: 'half',
  } as RequestInit).then(async (response) => ({ status: response.status, text: await response.text() }));
  return { answer, release };
}

/**
 * Resolves once a write of the server's database holds an entry (claimEntryForWrite's advisory lock): PostgreSQL.
 * Locks of other databases of the same server (other tests') are not counted.
 */
export async function entryWriteUnderWay(data: DataServer): Promise<void> {
  const { sql } = await import('kysely');
  for (;;) {
    const held = await sql<{ count: number }>`
      select count(*)::int as count from pg_locks where locktype = 'advisory' and mode = 'ExclusiveLock' and granted
        and database = (select oid from pg_database where datname = current_database())`.execute(
      data.server.server.ctx.db,
    );
    if (held.rows[0].count > 0) return;
    await new Promise((next) => setImmediate(next));
  }
}

/**
 * The server under test and the administrator of the instance that races it: on PostgreSQL another instance in its
 * own process (in one process, instances share their entry gates and upload lanes, and prove less), on the embedded
 * database the same instance.
 */
export async function startRacingInstances(): Promise<{
  data: DataServer;
  elsewhere: HttpClient;
  close(): Promise<void>;
}> {
  // Updates racing a write wait for it whatever it takes on a loaded machine: the races are about what they find then
  // (the bounded wait has its own test, configurationUpdateWait.test.ts).
  const data = await startDataServer({ updateWaitMs: RACE_WAIT_SECONDS * 1000 });
  let other: InstanceProcess | undefined;
  if (data.server.databaseUrl)
    other = await startInstanceProcess(data.server.databaseUrl, { UPDATE_WAIT_SECONDS: String(RACE_WAIT_SECONDS) });
  return {
    data,
    elsewhere: other ? new HttpClient(`${other.url}/api/v1`, { cookie: data.admin.cookieHeader }) : data.admin,
    async close() {
      await other?.stop();
      await data.server.close();
    },
  };
}

const RACE_WAIT_SECONDS = 300;

/**
 * Racing instances holding the `stations` application of the versioned readings, its sites loaded: the publication
 * races' set-up.
 */
export async function racingStations(): Promise<Awaited<ReturnType<typeof startRacingInstances>>> {
  const instances = await startRacingInstances();
  await createApplication(instances.data.admin, 'stations', VERSIONED_YAML);
  const sites = await uploadReference(instances.data.admin, 'stations', 'sites', 'sites.csv', sitesCsv());
  expect(sites.status, sites.text).toBe(201);
  return instances;
}

/** Stations of the observatory the races write readings of: enough rows that a write spans many batches. */
export const STATIONS = 2_000;
export const READINGS_PER_STATION = 10;

export const stationsCsv = (count = STATIONS) =>
  'code;Nom;altitude;depth;opened;habitat;habitats\n' +
  Array.from({ length: count }, (_, index) => `st${index};s${index};${index};;;;`).join('\n') +
  '\n';

/** Readings of every station, each with a note. */
export function readingsCsv(): string {
  const lines = ['station;day;value;note'];
  for (let station = 0; station < STATIONS; station++)
    for (let day = 1; day <= READINGS_PER_STATION; day++)
      lines.push(`st${station};${String(day).padStart(2, '0')}/06/2024;${station};note${station}`);
  return lines.join('\n') + '\n';
}

/**
 * Runs `meanwhile` once a publication (or an upload) has read the reference rows it checks its rows against. On the
 * embedded database its check then waits for `meanwhile` to be answered; on PostgreSQL it goes on beside it.
 */
export function whenReferencesRead(data: DataServer, meanwhile: () => Promise<unknown>) {
  const checks = data.server.server.ctx.checks;
  const open = checks.open.bind(checks);
  let done!: Promise<unknown>;
  const started = new Promise<void>((resolve) => {
    checks.open = (check: Omit<ServerCsvCheck, 'budgetMs'>) => {
      checks.open = open;
      done = meanwhile();
      resolve();
      const opened = open(check);
      // On the embedded database `meanwhile` goes first; on PostgreSQL the write goes on beside it.
      if (!data.server.databaseUrl) {
        const push = opened.push.bind(opened);
        opened.push = async (bytes) => {
          await done;
          return push(bytes);
        };
      }
      return opened;
    };
  });
  return { started, done: () => done };
}

/** Sessions of `client`'s database waiting for a lock (other tests may share the PostgreSQL server). */
export async function sessionsWaiting(client: pg.Client): Promise<number> {
  const found = await client.query<{ count: number }>(`select count(*)::int as count from pg_locks where not granted
     and pid in (select pid from pg_stat_activity where datname = current_database())`);
  return found.rows[0].count;
}

/** An observatory application named `name` (its configuration `yaml`), its habitats and race stations loaded. */
export async function observatoryWithStations(data: DataServer, name: string, yaml: string): Promise<string> {
  await createApplication(data.admin, name, yaml);
  expect((await uploadReference(data.admin, name, 'habitats', 'h.csv', HABITATS_CSV)).status).toBe(201);
  const stations = await uploadReference(data.admin, name, 'stations', 's.csv', stationsCsv());
  expect(stations.status, stations.text).toBe(201);
  return name;
}

/** Rows of `dataName` pointing to a key no row of the application holds. */
export async function pointingNowhere(data: DataServer, application: string, dataName: string): Promise<number> {
  const db = data.server.server.ctx.db;
  const { id } = await db
    .selectFrom('applications')
    .select('id')
    .where('name', '=', application)
    .executeTakeFirstOrThrow();
  const found = await sql<{ count: number }>`
    select count(*)::int as count from data_rows pointing, unnest(pointing.refs) as k(key)
    where pointing.application_id = ${id} and pointing.data_name = ${dataName}
      and not exists (select 1 from data_rows pointed where pointed.application_id = ${id} and pointed.hierarchical_key = k.key)`.execute(
    db,
  );
  return found.rows[0].count;
}

/**
 * A server and, on PostgreSQL, a session of its own database with which a test holds locks as a write would (the
 * embedded database has one session): `close` ends both.
 */
export async function startServerWithHolder(): Promise<{
  data: DataServer;
  holder?: pg.Client;
  close(): Promise<void>;
}> {
  const data = await startDataServer();
  let holder: pg.Client | undefined;
  if (data.server.databaseUrl) {
    holder = new pg.Client({ connectionString: data.server.databaseUrl });
    await holder.connect();
  }
  return {
    data,
    holder,
    async close() {
      await holder?.end();
      await data.server.close();
    },
  };
}
