import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshCount } from '../../server/services/dataRows.ts';
import { MAX_RECHECKED_ROWS } from '../../server/services/storedRowsRecheck.ts';
import { resultEvents, streamEvents, errorEvents } from './applicationFixtures.ts';
import { createApplication, csvForm, startDataServer, uploadReference, type DataServer } from './dataFixtures.ts';

/**
 * The stored rows a configuration update checks again (storedRowsRecheck.ts) stop at `MAX_RECHECKED_ROWS`
 * (100,000) per entry, and the report says so. An entry of exactly that many rows is checked whole; one row more
 * and the report says 100,000 checked, not complete. Every other row breaks the tighter checker: the failing rows
 * are counted among the checked ones, not cut at the examples the check keeps. Rows are seeded straight in the database (as an upload stores them); each dry run checks
 * 100,000 rows in a worker thread as an upload of them would.
 */
const APP = 'rechecks';

function configuration(version: string, altitude = 'OA_checker: {OA_name: OA_integer}') {
  return `OA_version: 2.0.1
OA_application:
  OA_name: ${APP}
  OA_version: ${version}
  OA_defaultLanguage: en
  OA_i18n:
    OA_title: {fr: Vérifications, en: Rechecks}
OA_data:
  plots:
    OA_naturalKey: [code]
    OA_basicComponents:
      code:
        OA_required: true
      altitude:
        ${altitude}
      note: null
`;
}
const TIGHTER = configuration('1.1.0', 'OA_checker: {OA_name: OA_integer, OA_params: {OA_max: 1000}}');

let data: DataServer;
let applicationId: string;
const db = () => data.server.server.ctx.db;

/** Plots p<from>…p<to> stored as an upload stores them, those of an even number above the tighter checker's maximum. */
async function seed(from: number, to: number) {
  await sql`
    insert into data_rows (id, application_id, data_name, natural_key, hierarchical_key, values, refs, line_number)
    select gen_random_uuid(), ${applicationId}, 'plots', 'p' || i, 'plotsKp' || i,
           jsonb_build_object('code', 'p' || i, 'altitude', case when i % 2 = 0 then 5000 + i else 500 end, 'note', 'note ' || i), '{}', i + 1
    from generate_series(${from}::int, ${to}::int) i`.execute(db());
  await refreshCount(db(), applicationId, 'plots');
}

async function revalidation() {
  const answer = await data.admin.post(`/applications/${APP}/configuration?dryRun=true`, {
    body: csvForm('rechecks.yaml', TIGHTER),
  });
  expect(answer.status, answer.text).toBe(200);
  const events = streamEvents(answer.text);
  expect(errorEvents(events)).toEqual([]);
  const plots = resultEvents(events)[0].impact.entries.find(
    (entry: { dataName: string }) => entry.dataName === 'plots',
  );
  return plots.revalidation;
}

beforeAll(async () => {
  data = await startDataServer();
  await createApplication(data.admin, APP, configuration('1.0.0'));
  const loaded = await uploadReference(data.admin, APP, 'plots', 'plots.csv', 'code;altitude;note\np0;5000;note 0\n');
  expect(loaded.status, loaded.text).toBe(201);
  applicationId = (await db().selectFrom('applications').select('id').where('name', '=', APP).executeTakeFirstOrThrow())
    .id;
  const uploaded = await db()
    .selectFrom('data_rows')
    .select(['hierarchical_key', 'values'])
    .where('application_id', '=', applicationId)
    .executeTakeFirstOrThrow();
  expect(uploaded).toEqual({ hierarchical_key: 'plotsKp0', values: { code: 'p0', altitude: 5000, note: 'note 0' } });
  await seed(1, MAX_RECHECKED_ROWS - 1);
}, 120_000);
afterAll(() => data?.server.close());

describe('the stored rows a configuration update checks again', () => {
  it('checks an entry of exactly 100,000 rows whole', async () => {
    expect(await revalidation()).toMatchObject({
      checkedRows: MAX_RECHECKED_ROWS,
      failingRows: MAX_RECHECKED_ROWS / 2,
      complete: true,
    });
  }, 90_000);

  it('checks 100,000 of 100,001 rows and says the check is not complete', async () => {
    await seed(MAX_RECHECKED_ROWS, MAX_RECHECKED_ROWS);
    const outcome = await revalidation();
    expect(outcome).toMatchObject({ checkedRows: MAX_RECHECKED_ROWS, complete: false });
    // One row is left out, failing or not, in the order the rows are read.
    expect([MAX_RECHECKED_ROWS / 2 - 1, MAX_RECHECKED_ROWS / 2, MAX_RECHECKED_ROWS / 2 + 1]).toContain(
      outcome.failingRows,
    );
    expect(outcome.examples.length).toBeGreaterThan(0);
    // A dry run: nothing written.
    const version = await db()
      .selectFrom('applications')
      .select('version')
      .where('id', '=', applicationId)
      .executeTakeFirstOrThrow();
    expect(version.version).toBe('1.0.0');
  }, 90_000);
});
