/**
 * An entry under a parent whose rows point to other rows of the same entry without being a hierarchy (a reference to itself that is
 * neither recursive nor a parent, as the corpus's `computedwithnaturalkeycolumns` computes one): its rows may point
 * to rows of the same file and to rows stored earlier, and those are held like any pointed rows. A versioned data
 * type referring to itself is checked against the rows of its published versions too. The check gets the keys of
 * the rows it is checked against (their values only when it reads them), read a page at a time, each key once
 * however many versions repeat it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFERENCE_READ_PAGE, referenceRowsFor } from '../../server/services/dataRows.ts';
import type { DataEntry, Expression } from '../../src/domain/configuration/model.ts';
import { POINTED_KEYS_BATCH } from '../../server/services/pointedRows.ts';
import { sitesCsv, siteCode, yearDataset } from '../bench/versionedData.ts';
import {
  createApplication,
  csvForm,
  modelOf,
  startDataServer,
  storedRows,
  uploadReference,
  waitForJob,
  type DataServer,
} from './dataFixtures.ts';
import { referencesRead } from './raceFixtures.ts';
import { statementsOf } from './statementsRead.ts';

const YAML = `OA_version: 2.0.1
OA_application: {OA_name: twins, OA_version: 1.0.0}
OA_data:
  zones:
    OA_naturalKey: [zone]
    OA_basicComponents: {zone: null}
  sites:
    OA_naturalKey: [zone, code]
    OA_basicComponents:
      zone: {OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: zones, OA_isParent: true}}}}
      code: null
      twin: {OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: sites}}}}
`;

/** More rows than a page of reference reads and a batch of pointed keys. */
const ROWS = Math.max(REFERENCE_READ_PAGE, POINTED_KEYS_BATCH) + 2_000;

/** Sites of zone z1, written by their natural key (the zone's and the code's, joined as the original joins them). */
const sitesFile = (prefix: string, twinOf: (i: number) => string) =>
  ['zone;code;twin', ...Array.from({ length: ROWS }, (_, i) => `z1;${prefix}${i};z1__${twinOf(i)}`)].join('\n');

let data: DataServer;

beforeAll(async () => {
  data = await startDataServer();
  await createApplication(data.admin, 'twins', YAML);
  expect((await uploadReference(data.admin, 'twins', 'zones', 'zones.csv', 'zone\nz1\nz2')).status).toBe(201);
});
afterAll(() => data?.server.close());

describe('an entry referring to itself', () => {
  it('stores a file whose rows point to rows of the same file', async () => {
    const answer = await uploadReference(
      data.admin,
      'twins',
      'sites',
      'a.csv',
      sitesFile('a', (i) => `a${(i + 1) % ROWS}`),
    );
    expect(answer.status, answer.text.slice(0, 500)).toBe(201);
  });

  it('stores a later file whose rows point to rows stored earlier, and refuses a twin no row has', async () => {
    const sent = referencesRead(data, 'sites');
    const [answer, , , largest] = await statementsOf(data.server.server.ctx.db, () =>
      uploadReference(
        data.admin,
        'twins',
        'sites',
        'b.csv',
        sitesFile('b', (i) => `a${i}`),
      ),
    );
    expect(answer.status, answer.text.slice(0, 500)).toBe(201);
    // Whatever table a statement names (the reads are written as SQL), none answers more than a page.
    expect(largest).toBeLessThanOrEqual(REFERENCE_READ_PAGE);
    // A reference checker reads no value of the rows it resolves.
    const references = await sent;
    expect(references.sites).toHaveLength(ROWS);
    expect(references.sites.every((row) => Object.keys(row.values).length === 0)).toBe(true);
    expect(references.zones.map((row) => row.naturalKey)).toEqual(['z1', 'z2']);
    const rows = await storedRows(data.admin, 'twins', 'sites');
    expect(rows).toHaveLength(2 * ROWS);
    const b7 = rows.find((row) => row.naturalKey === 'z1__b7')!;
    const a7 = rows.find((row) => row.naturalKey === 'z1__a7')!;
    expect(b7.values.twin).toBe(a7.hierarchicalKey);

    const refused = await uploadReference(data.admin, 'twins', 'sites', 'c.csv', 'zone;code;twin\nz1;c0;z1__nowhere');
    expect([refused.status, refused.body.code]).toEqual([400, 'INVALID_CSV']);
    expect(refused.body.errors[0]).toMatchObject({ lineNumber: 2, code: 'invalidReferenceWithComponent' });
  });

  it('refuses to delete a row other rows of the entry point to', async () => {
    const refused = await data.admin.delete('/applications/twins/references/sites?naturalKey=z1__a7');
    expect([refused.status, refused.body.code]).toEqual([409, 'REFERENCED_ROWS']);
    expect((await storedRows(data.admin, 'twins', 'sites')).some((row) => row.naturalKey === 'z1__a7')).toBe(true);
  });
});

const VERSIONED_YAML = `OA_version: 2.0.1
OA_application: {OA_name: chains, OA_version: 1.0.0}
OA_data:
  sites:
    OA_naturalKey: [code]
    OA_basicComponents: {code: null, name: null}
  readings:
    OA_tags: [__DATA__]
    OA_naturalKey: [site, code]
    OA_basicComponents:
      site: {OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: sites}}}}
      code: null
      day: {OA_checker: {OA_name: OA_date, OA_params: {OA_pattern: dd/MM/yyyy}}}
      twin: {OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: readings}}}}
    OA_authorizations:
      OA_authorizationScope: [site]
      OA_timeScope: day
    OA_submission:
      OA_strategy: OA_VERSIONING
      OA_submissionScope:
        OA_referenceScopes:
          - OA_reference: sites
            OA_component: site
        OA_timeScope:
          OA_component: day
`;

/** A version of the first site's `year`: `ROWS` readings coded `prefix<i>`, each naming the reading `twinOf(i)`. */
function deposit(year: number, prefix: string, twinOf: (i: number) => string, rows = ROWS) {
  const site = siteCode(0);
  const lines = Array.from({ length: rows }, (_, i) => `${site};${prefix}${i};01/06/${year};${site}__${twinOf(i)}`);
  return data.admin.post('/applications/chains/data/readings', {
    body: csvForm(`${year}.csv`, ['site;code;day;twin', ...lines].join('\n'), yearDataset(0, year)),
  });
}

describe('a versioned data type referring to itself', () => {
  it('checks a version against the readings of every published version, each key read once', async () => {
    await createApplication(data.admin, 'chains', VERSIONED_YAML);
    expect((await uploadReference(data.admin, 'chains', 'sites', 'sites.csv', sitesCsv())).status).toBe(201);
    // Two years' versions published, the same readings in each.
    for (const year of [2021, 2022]) {
      const deposited = await deposit(year, 'r', (i) => `r${(i + 1) % ROWS}`);
      expect(deposited.status, deposited.text.slice(0, 500)).toBe(201);
      const fileId = deposited.body.fileId as string;
      const published = await data.admin.post('/applications/chains/data/readings', {
        json: { fileid: fileId, topublish: true },
      });
      expect(published.status, published.text).toBe(202);
      expect((await waitForJob(data.admin, 'chains', fileId, 60_000)).job.status).toBe('done');
    }

    const sent = referencesRead(data, 'readings');
    const [answer, , , largest] = await statementsOf(data.server.server.ctx.db, () =>
      deposit(2023, 's', (i) => `r${i}`),
    );
    expect(answer.status, answer.text.slice(0, 500)).toBe(201);
    expect(largest).toBeLessThanOrEqual(REFERENCE_READ_PAGE);
    const references = await sent;
    expect(references.readings).toHaveLength(ROWS);
    expect(new Set(references.readings.map((row) => row.hierarchicalKey)).size).toBe(ROWS);
    expect(references.readings.every((row) => Object.keys(row.values).length === 0)).toBe(true);

    // An expression naming the data type (`OA_references`) reads every version's rows, values and all.
    const model = await modelOf(data.admin, 'chains');
    const readings = model.data.find((entry) => entry.name === 'readings')!;
    const expression: Expression = {
      source: 'return true',
      references: ['readings'],
      exceptions: {},
      multiplicity: 'ONE',
    };
    const reading: DataEntry = {
      ...readings,
      validations: [
        ...readings.validations,
        {
          name: 'known',
          labels: {},
          checker: { kind: 'expression', expression, multiplicity: 'ONE' },
          components: [],
          required: false,
        },
      ],
    };
    const db = data.server.server.ctx.db;
    const { id } = await db
      .selectFrom('applications')
      .select('id')
      .where('name', '=', 'chains')
      .executeTakeFirstOrThrow();
    const [read, , , largestRead] = await statementsOf(db, () => referenceRowsFor(db, id, model, reading));
    expect(largestRead).toBeLessThanOrEqual(REFERENCE_READ_PAGE);
    expect(read.readings).toHaveLength(2 * ROWS);
    expect(read.readings.filter((row) => row.values.code === 'r7')).toHaveLength(2);

    const refused = await deposit(2024, 't', () => 'nowhere', 1);
    expect([refused.status, refused.body.code]).toEqual([400, 'INVALID_CSV']);
    expect(refused.body.errors[0]).toMatchObject({ lineNumber: 2, code: 'invalidReferenceWithComponent' });
  }, 120_000);
});
