/**
 * Exports of an entry loaded from files of different columns (a dynamic component reading a reference): to load
 * again, its rows need one file per shape, which the zip holds and the CSV alone cannot (409, unless the query
 * keeps rows of one shape); to read, one file whose dynamic cells are JSON keyed by the headers of the files.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createApplication,
  csvForm,
  fetchBytes,
  q,
  readCsv,
  startDataServer,
  tableState,
  unzipText,
  uploadReference,
  withoutIds,
  type DataServer,
} from './dataFixtures.ts';

const YAML = `OA_version: 2.0.1
OA_application:
  OA_name: gauges
  OA_version: 1.0.0
  OA_defaultLanguage: en
  OA_i18n:
    OA_title: {fr: Jauges, en: Gauges}
OA_data:
  variables:
    OA_i18n:
      OA_title: {fr: Variables, en: Variables}
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
      name: null
  measures:
    OA_tags: [__DATA__]
    OA_i18n:
      OA_title: {fr: Mesures, en: Measures}
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
    OA_dynamicComponents:
      measured:
        OA_headerPrefix: "m_"
        OA_reference: variables
        OA_referenceComponentToLookForHeader: name
`;

const VARIABLES = 'code;name\nv0;Zero\nv1;One\nv2;Two\nv3;Three\n';
/** Two shapes: files 0 and 2 have the columns of Zero and One, file 1 those of Two and Three. */
const FILES = [
  'code;m_Zero;m_One\na1;1;2\na2;3;4\n',
  'code;m_Two;m_Three\nb1;5;6\nb2;7;8\n',
  'code;m_Zero;m_One\nc1;9;10\n',
];

let data: DataServer;
const measures = '/applications/gauges/data/measures';

beforeAll(async () => {
  data = await startDataServer();
  await createApplication(data.admin, 'gauges', YAML);
  await createApplication(data.admin, 'gauges_copy', YAML.replace('OA_name: gauges', 'OA_name: gauges_copy'));
  for (const app of ['gauges', 'gauges_copy'])
    expect((await uploadReference(data.admin, app, 'variables', 'variables.csv', VARIABLES)).status).toBe(201);
  for (const [index, file] of FILES.entries()) {
    const answer = await data.admin.post(measures, { body: csvForm(`measures${index}.csv`, file) });
    expect(answer.status, answer.text).toBe(201);
  }
}, 60_000);
afterAll(() => data?.server.close());

describe('an entry loaded from files of different columns', () => {
  it('loads again from the zip, one file per shape, into the same rows', async () => {
    const zip = unzipText((await fetchBytes(data, `${measures}/zip?form=upload`)).bytes);
    // Dynamic columns in the order of the variables' keys, as a backup writes them.
    expect(Object.keys(zip).sort()).toEqual(['measures-2.csv', 'measures.csv']);
    expect(zip['measures.csv']).toBe('"code";"m_Zero";"m_One"\n"a1";"1";"2"\n"a2";"3";"4"\n"c1";"9";"10"\n');
    expect(zip['measures-2.csv']).toBe('"code";"m_Two";"m_Three"\n"b1";"5";"6"\n"b2";"7";"8"\n');
    for (const name of ['measures.csv', 'measures-2.csv']) {
      const answer = await data.admin.post('/applications/gauges_copy/data/measures', {
        body: csvForm(name, zip[name]),
      });
      expect(answer.status, answer.text).toBe(201);
    }
    const original = await tableState(data.admin, 'gauges', 'measures', 'data');
    const copy = await tableState(data.admin, 'gauges_copy', 'measures', 'data');
    expect(withoutIds(copy.rows)).toEqual(withoutIds(original.rows));
  });

  it('refuses the CSV alone with 409, unless the query keeps rows of one shape', async () => {
    const refused = await data.admin.get(`${measures}/csv?form=upload`);
    expect([refused.status, refused.body.code, refused.body.params]).toEqual([
      409,
      'UPLOAD_FORM_SEVERAL_FILES',
      { files: 2 },
    ]);
    const one = await data.admin.get(`${measures}/csv${q({ naturalKeys: ['b1', 'b2'] })}&form=upload`);
    expect(one.status, one.text).toBe(200);
    expect(one.text).toBe('"code";"m_Two";"m_Three"\n"b1";"5";"6"\n"b2";"7";"8"\n');
  });

  it('reads as one file whose dynamic cells are JSON keyed by the headers of the files', async () => {
    const [titles, ...lines] = readCsv((await data.admin.get(`${measures}/csv`)).text, ';');
    expect(titles).toEqual(['code', 'measured']);
    expect(lines.map((line) => [line[0], JSON.parse(line[1])])).toEqual([
      ['a1', { m_One: '2', m_Zero: '1' }],
      ['a2', { m_One: '4', m_Zero: '3' }],
      ['b1', { m_Three: '6', m_Two: '5' }],
      ['b2', { m_Three: '8', m_Two: '7' }],
      ['c1', { m_One: '10', m_Zero: '9' }],
    ]);
  });
});
