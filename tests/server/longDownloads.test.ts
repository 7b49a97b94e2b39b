/**
 * Exports and backups run for minutes at real size, and things change meanwhile. A right withdrawn or narrowed, or a
 * session ended, while an export runs stops what is still to be sent (server/http/whileAllowed.ts). A backup read
 * while the application changes is left without its manifest, never given as a whole copy no restore would accept
 * (backupStamp.ts). Each download here is several times what the server and the connection buffer, so that most of
 * it is still to come when the change is made.
 */
import { createHash, randomUUID } from 'node:crypto';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECHECK_BYTES } from '../../server/http/whileAllowed.ts';
import { activeAccount, signedIn, type Account } from './accountFixtures.ts';
import {
  createApplication,
  csvForm,
  HABITATS_CSV,
  OBSERVATORY_YAML,
  readCsv,
  ROOT,
  startDataServer,
  uploadReference,
  type DataServer,
} from './dataFixtures.ts';
import type { HttpClient } from './httpClient.ts';

const STATIONS = 3_000;
const DAYS = 20;
/**
 * A field note long enough for the readings to weigh tens of megabytes, and varied enough that a zip of them weighs
 * almost as much: digests, as written by a random hand.
 */
const note = (row: number) =>
  Array.from({ length: 12 }, (_, part) => createHash('sha256').update(`${row}:${part}`).digest('base64')).join('');
const code = (index: number) => `st${String(index).padStart(5, '0')}`;

function stationsCsv(): string {
  const lines = ['code;Nom;altitude;depth;opened;habitat;habitats'];
  for (let index = 0; index < STATIONS; index += 1)
    lines.push(`${code(index)};Station ${index};10;1;01/01/2020;lake;lake`);
  return `${lines.join('\n')}\n`;
}

function readingsCsv(): string {
  const lines = ['station;day;value;note'];
  for (let day = 1; day <= DAYS; day += 1)
    for (let station = 0; station < STATIONS; station += 1)
      lines.push(`${code(station)};${String(day).padStart(2, '0')}/06/2024;1.5;${note(day * STATIONS + station)}`);
  return `${lines.join('\n')}\n`;
}

let data: DataServer;
let account: Account;
let reader: HttpClient;
let grantId: string;

/** The reader's grant: every station, the readings of June from the first to `toDay`. */
async function grant(toDay: string, references = ['stations', 'habitats']) {
  const answer = await data.admin.post('/applications/observatory/authorization', {
    json: {
      uuid: grantId ?? null,
      name: 'June',
      usersId: [account.login],
      authorizationForAll: Object.fromEntries(references.map((name) => [name, ['extraction']])),
      authorizationsWithRestriction: {
        readings: {
          operationTypes: ['extraction'],
          requiredAuthorizations: {},
          timeScope: { fromDay: '2024-06-01', toDay },
        },
      },
    },
  });
  expect(answer.status, answer.text).toBe(201);
  grantId = answer.body.authorizationId;
}

/**
 * A download read as a slow tablet reads it: its first bytes, then `meanwhile`, then the rest. Says how many bytes
 * came and whether it ended cut short.
 */
async function downloadAround(client: HttpClient, path: string, meanwhile: () => Promise<unknown> = async () => {}) {
  const response = await fetch(`${data.server.url}/api/v1${path}`, { headers: { cookie: client.cookieHeader } });
  expect(response.status).toBe(200);
  const body = response.body!.getReader();
  const chunks: Uint8Array[] = [];
  const first = await body.read();
  if (!first.done) chunks.push(first.value);
  await meanwhile().catch(async (error: unknown) => {
    await body.cancel();
    throw error;
  });
  let cut = false;
  try {
    for (let chunk = await body.read(); !chunk.done; chunk = await body.read()) chunks.push(chunk.value);
  } catch {
    cut = true;
  }
  const bytes = Buffer.concat(chunks);
  return { bytes: bytes.byteLength, text: bytes.toString('utf8'), body: new Uint8Array(bytes), cut };
}

beforeAll(async () => {
  data = await startDataServer();
  await createApplication(data.admin, 'observatory', OBSERVATORY_YAML);
  expect((await uploadReference(data.admin, 'observatory', 'habitats', 'habitats.csv', HABITATS_CSV)).status).toBe(201);
  expect((await uploadReference(data.admin, 'observatory', 'stations', 'stations.csv', stationsCsv())).status).toBe(
    201,
  );
  const readings = await data.admin.post('/applications/observatory/data/readings', {
    body: csvForm('readings.csv', readingsCsv()),
  });
  expect(readings.status, readings.text).toBe(201);
  account = await activeAccount(data.server);
  await grant('2024-06-30');
  reader = await signedIn(data.server, account);
}, 300_000);
afterAll(() => data?.server.close());

describe('an export whose reader loses the right to it while it runs', () => {
  const CSV = '/applications/observatory/data/readings/csv';
  let whole: number;

  it('runs to its end while the rights stay (the same slow reading)', async () => {
    const read = await downloadAround(reader, CSV);
    expect(read.cut).toBe(false);
    expect(readCsv(read.text, ';').slice(1)).toHaveLength(STATIONS * DAYS);
    whole = read.bytes;
    expect(whole).toBeGreaterThan(24 * RECHECK_BYTES);
  });

  it('stops once the period is narrowed; the next export holds the narrowed period only', async () => {
    const read = await downloadAround(reader, CSV, () => grant('2024-06-05'));
    expect(read.cut).toBe(true);
    expect(read.bytes).toBeLessThan(whole / 2);
    const after = readCsv((await downloadAround(reader, CSV)).text, ';').slice(1);
    expect(after).toHaveLength(STATIONS * 5);
    expect(after.every((row) => Number(row[1].slice(0, 2)) <= 5)).toBe(true);
    await grant('2024-06-30');
  });

  it('stops a zip once a reference it holds may no longer be read', async () => {
    const zip = '/applications/observatory/data/readings/zip';
    const control = await downloadAround(reader, zip);
    expect(control.cut).toBe(false);
    const read = await downloadAround(reader, zip, () => grant('2024-06-30', ['habitats']));
    expect(read.cut).toBe(true);
    expect(read.bytes).toBeLessThan(control.bytes / 2);
    await grant('2024-06-30');
  });

  it('stops every row as JSON once the reader signed out', async () => {
    const json = '/applications/observatory/data/readings/json';
    const read = await downloadAround(reader, json, async () => {
      expect((await reader.delete('/logout')).status).toBe(200);
    });
    expect(read.cut).toBe(true);
    expect(read.bytes).toBeLessThan(whole / 2);
    reader = await signedIn(data.server, account);
  });
});

describe('a backup during which the application changes', () => {
  const BACKUP = '/applications/observatory/upload-bundle?withData=true';
  const hasManifest = (bytes: Uint8Array) => 'manifest.json' in unzipSync(bytes);

  it('is whole when nothing changes while it is read', async () => {
    const read = await downloadAround(data.admin, BACKUP);
    expect(read.cut).toBe(false);
    expect(read.bytes).toBeGreaterThan(20 * RECHECK_BYTES);
    expect(hasManifest(read.body)).toBe(true);
  });

  it('ends without its manifest, cut short, when a reference row is added while it is read', async () => {
    const read = await downloadAround(data.admin, BACKUP, async () => {
      const added = await uploadReference(
        data.admin,
        'observatory',
        'habitats',
        'habitats.csv',
        `${HABITATS_CSV.trimEnd()}\nbog,Tourbière,Bog\n`,
      );
      expect(added.status, added.text).toBe(201);
    });
    expect(read.cut).toBe(true);
    expect(() => hasManifest(read.body)).toThrow();
    const again = await downloadAround(data.admin, BACKUP);
    expect(again.cut).toBe(false);
    expect(hasManifest(again.body)).toBe(true);
  });

  it('never holds the rows of a large upload that failed while it was read', async () => {
    // The last line names no station. Whether rows are written before it is checked depends on the machine: on the
    // embedded database they are then undone and the entry marked changed (largeUploadSharing.test.ts proves the
    // mark), which cuts the backup; otherwise nothing was written and the backup is whole.
    const failing = `${readingsCsv().trimEnd()}\nnowhere;01/06/2024;1.5;x\n`;
    const read = await downloadAround(data.admin, BACKUP, async () => {
      const refused = await data.admin.post('/applications/observatory/data/readings', {
        body: csvForm('readings.csv', failing),
      });
      expect(refused.status, refused.text.slice(0, 300)).toBeGreaterThanOrEqual(400);
    });
    if (read.cut) expect(() => hasManifest(read.body)).toThrow();
    else expect(hasManifest(read.body)).toBe(true);
  });

  it('stops when its taker signs out while it is sent', async () => {
    const taker = await signedIn(data.server, ROOT);
    const read = await downloadAround(taker, BACKUP, async () => {
      expect((await taker.delete('/logout')).status).toBe(200);
    });
    expect(read.cut).toBe(true);
    expect(() => hasManifest(read.body)).toThrow();
  });

  it('is refused before it starts, 409, while a large write of the embedded database is half done', async () => {
    const db = data.server.server.ctx.db;
    const application = await db
      .selectFrom('applications')
      .select('id')
      .where('name', '=', 'observatory')
      .executeTakeFirstOrThrow();
    // What a large write records while its batches go in (bulkJournal.ts); no such write runs here.
    await db
      .insertInto('bulk_writes')
      .values({ id: randomUUID(), application_id: application.id, data_name: 'readings', journal: 'w_test' })
      .execute();
    try {
      const refused = await data.admin.get(BACKUP);
      expect([refused.status, refused.body.code]).toEqual([409, 'APPLICATION_CHANGED_MEANWHILE']);
    } finally {
      await db.deleteFrom('bulk_writes').where('journal', '=', 'w_test').execute();
    }
  });
});
