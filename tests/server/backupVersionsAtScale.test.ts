/**
 * A backup's deposited versions at real size: thousands of versions stored straight in the database, as deposits
 * store them (small files of one part, a few of several parts, several sharing a creation time to the
 * microsecond). What is counted is the work over HTTP: the statements sent and the versions' rows brought back.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BundleManifest } from '../../src/domain/bundle/manifest.ts';
import { createApplication, fetchBytes, startDataServer, type DataServer } from './dataFixtures.ts';
import { rowsScanned, statementsOf } from './statementsRead.ts';

/** Small versions (one part each), and large ones of three parts. */
const VERSIONS = 3_000;
const LARGE_VERSIONS = 2;

const fixtures = path.resolve(import.meta.dirname, '../fixtures');

let data: DataServer;
const db = () => data.server.server.ctx.db;

/** Versions of the counts, three sharing each creation time; every fifth one published. */
async function seedVersions(applicationId: string) {
  await sql`
    insert into deposit_files (id, application_id, data_name, file_name, size, scope, period_from, period_to,
                               comment, created_at, published, published_at, row_count)
    select md5('version' || i)::uuid, ${applicationId}, 'counts', 'version ' || lpad(i::text, 6, '0') || '.csv',
           case when i <= ${LARGE_VERSIONS}::int then 2621440 else length('version ' || i) end,
           jsonb_build_object('project', 'projectsKalps', 'site', 'projectsKalps.sitesKlac_blanc'),
           timestamp '2024-06-01', timestamp '2024-06-30 23:59:59', 'deposit ' || i,
           timestamptz '2024-01-01 00:00:00.000001+00' + (i / 3) * interval '1 second',
           i % 5 = 0, case when i % 5 = 0 then timestamptz '2024-03-01 00:00:00+00' + i * interval '1 second' end,
           i % 11
    from generate_series(1, ${VERSIONS + LARGE_VERSIONS}::int) i`.execute(db());
  await sql`
    insert into file_parts (content_id, part, bytes)
    select md5('version' || i)::uuid, 0, convert_to('version ' || i, 'UTF8')
    from generate_series(${LARGE_VERSIONS + 1}::int, ${VERSIONS + LARGE_VERSIONS}::int) i`.execute(db());
  await sql`
    insert into file_parts (content_id, part, bytes)
    select md5('version' || i)::uuid, part, convert_to(repeat(chr(96 + i + part), case when part < 2 then 1048576 else 524288 end), 'UTF8')
    from generate_series(1, ${LARGE_VERSIONS}::int) i, generate_series(0, 2) part`.execute(db());
}

beforeAll(async () => {
  data = await startDataServer();
  await createApplication(
    data.admin,
    'surveys',
    new Uint8Array(readFileSync(path.join(fixtures, 'configurations/surveys.yaml'))),
    'surveys.yaml',
  );
  const application = await db()
    .selectFrom('applications')
    .select('id')
    .where('name', '=', 'surveys')
    .executeTakeFirstOrThrow();
  await seedVersions(application.id);
  // Not analyzed here: the backup refreshes the figures of the versions itself (nothing else does on the embedded
  // database, and without them the planner sorts every version again for each page).
}, 300_000);
afterAll(() => data?.server.close());

describe("a backup's versions at real size", () => {
  it('reads the versions a page at a time and several small files to a statement, bytes as before', async () => {
    const [saved, statements, rowsRead, largest] = await statementsOf(
      db(),
      () => fetchBytes(data, '/applications/surveys/upload-bundle?withData=true'),
      'deposit_files',
    );
    expect(saved.status).toBe(200);
    const files = unzipSync(saved.bytes);
    const manifest: BundleManifest = JSON.parse(new TextDecoder().decode(files['manifest.json']));
    const names = (n: number) => `version ${String(n).padStart(6, '0')}.csv`;
    // In the order of their creation, then of their ids: each once, whatever page it fell on.
    expect(manifest.deposits.map((d) => d.fileName).sort()).toEqual(
      Array.from({ length: VERSIONS + LARGE_VERSIONS }, (_, i) => names(i + 1)),
    );
    const order = manifest.deposits.map((d) => [d.createdAt, d.path.split('/')[2]!] as const);
    expect(order).toEqual([...order].sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? -1 : 1) : a[0] < b[0] ? -1 : 1)));
    const bytesOf = (n: number) => files[manifest.deposits.find((d) => d.fileName === names(n))!.path]!;
    expect(new TextDecoder().decode(bytesOf(VERSIONS + LARGE_VERSIONS))).toBe(`version ${VERSIONS + LARGE_VERSIONS}`);
    const large = bytesOf(1);
    expect([large.byteLength, large[0], large[1_048_576], large.at(-1)]).toEqual([2_621_440, 97, 98, 99]);
    expect(manifest.deposits.find((d) => d.fileName === names(10))).toMatchObject({
      published: true,
      rowCount: 10,
      comment: 'deposit 10',
      scope: { project: 'projectsKalps', site: 'projectsKalps.sitesKlac_blanc' },
      from: '2024-06-01T00:00:00',
      to: '2024-06-30T23:59:59',
    });
    // What the versions are in the zip, to compare with a backup made by another build.
    const digest = createHash('sha256').update(JSON.stringify(manifest.deposits));
    for (const deposit of manifest.deposits) digest.update(files[deposit.path]!);
    if (process.env.BACKUP_FIGURES)
      console.log('versions', { statements, rowsRead, largest, digest: digest.digest('hex') });
    // Each version once, a page at a time (and the sum of their sizes, for the estimate). Before, every version in
    // one statement.
    expect(rowsRead).toBeLessThanOrEqual(VERSIONS + LARGE_VERSIONS + 1);
    expect(largest).toBeLessThanOrEqual(500);
    // One statement per version's file before.
    expect(statements).toBeLessThan(100);
  }, 300_000);

  it('enters the order of the versions where the previous page ended', async () => {
    // What the database read for the pages' statements (EXPLAIN ANALYZE): without an index on the backup's order,
    // each page sorted every version of the application again.
    const [saved, scanned] = await rowsScanned(
      db(),
      () => fetchBytes(data, '/applications/surveys/upload-bundle?withData=true'),
      'f.created_at::text',
      'deposit_files',
    );
    expect(saved.status).toBe(200);
    if (process.env.BACKUP_FIGURES) console.log('versions scanned', { scanned });
    expect(scanned).toBeLessThanOrEqual(VERSIONS + LARGE_VERSIONS + 10);
  }, 300_000);
});
