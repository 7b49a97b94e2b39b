import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeAccount } from './accountFixtures.ts';
import {
  createApplication,
  csvForm,
  HABITATS_CSV,
  OBSERVATORY_YAML,
  q,
  READINGS_CSV,
  ROOT,
  startDataServer,
  STATIONS_CSV,
  uploadReference,
  type DataServer,
} from './dataFixtures.ts';

/**
 * Requests written for the original OpenADOM that Terrain does not read as it did: each is answered as the
 * original answered it, or refused with a code, never a 2xx with other content (docs/decisions.md, "Differences a
 * script meets"). Malformed forms of each are 4xx, never 500.
 */

const APP = '/applications/observatory';
/** Above the export's page (EXPORT_PAGE, 5,000), so that an unpaged read crosses pages. */
const HABITATS = 6_000;

const YAML = `${OBSERVATORY_YAML}OA_additionalFiles:
  notes:
    OA_i18n:
      OA_title: {fr: Notes, en: Notes}
    OA_formFields:
      title:
        OA_i18n:
          OA_title: {fr: Titre, en: Title}
        OA_required: true
`;

let data: DataServer;

beforeAll(async () => {
  data = await startDataServer();
  await createApplication(data.admin, 'observatory', YAML);
  const habitats = [
    HABITATS_CSV.trimEnd(),
    ...Array.from({ length: HABITATS - 4 }, (_, i) => `h${i},Habitat ${i},Habitat ${i}`),
  ].join('\n');
  for (const [name, csv] of [
    ['habitats', `${habitats}\n`],
    ['stations', STATIONS_CSV],
  ])
    expect((await uploadReference(data.admin, 'observatory', name, `${name}.csv`, csv)).status).toBe(201);
  const loaded = await data.admin.post(`${APP}/data/readings`, { body: csvForm('readings.csv', READINGS_CSV) });
  expect(loaded.status, loaded.text).toBe(201);
});
afterAll(() => data?.server.close());

const readingKeys = async () =>
  ((await data.admin.get(`${APP}/data/readings/json${q({ limit: 100 })}`)).body.rows as Array<{ naturalKey: string }>)
    .map((row) => row.naturalKey)
    .sort();

describe('deleting rows of a data type', () => {
  it('refuses a deletion by filters or without a selection, and deletes nothing', async () => {
    const before = await readingKeys();
    for (const query of [
      { componentFilters: [{ componentKey: 'note', filters: ['calm'] }] },
      { naturalKeys: ['gers__03_06_2024'], componentFilters: [{ componentKey: 'note', filters: ['windy'] }] },
      {},
      { rowIds: [], naturalKeys: [] },
    ]) {
      const answer = await data.admin.delete(`${APP}/data/readings${q(query)}`);
      expect(answer.status, JSON.stringify(query)).toBe(400);
      expect(answer.body.code).toBe('DELETION_NEEDS_ROW_IDS_OR_NATURAL_KEYS');
    }
    const bare = await data.admin.delete(`${APP}/data/readings`);
    expect([bare.status, bare.body.code]).toEqual([400, 'DELETION_NEEDS_ROW_IDS_OR_NATURAL_KEYS']);
    expect(await readingKeys()).toEqual(before);
  });

  it('reads the selection from a form, url-encoded or JSON body, as the original front end sent it', async () => {
    const form = new FormData();
    form.append('downloadDatasetQuery', JSON.stringify({ naturalKeys: ['gers__03_06_2024'] }));
    const byForm = await data.admin.delete(`${APP}/data/readings`, { body: form });
    expect(byForm.status, byForm.text).toBe(200);
    expect(byForm.body.deleted).toHaveLength(1);
    const byUrlEncoded = await data.admin.request('DELETE', `${APP}/data/readings`, {
      form: { downloadDatasetQuery: JSON.stringify({ naturalKeys: ['chamonix__01_06_2024'] }) },
    });
    expect(byUrlEncoded.status, byUrlEncoded.text).toBe(200);
    expect(byUrlEncoded.body.deleted).toHaveLength(1);
    const byJson = await data.admin.request('DELETE', `${APP}/data/readings`, {
      json: { downloadDatasetQuery: { naturalKeys: ['anterne__02_06_2024'] } },
    });
    expect(byJson.status, byJson.text).toBe(200);
    expect(byJson.body.deleted).toHaveLength(1);
    expect(await readingKeys()).toEqual(['anterne__01_06_2024']);
  });

  it('refuses a query and a body that differ, a filter sent in a body, and malformed bodies, with 4xx', async () => {
    const differing = new FormData();
    differing.append('downloadDatasetQuery', JSON.stringify({ naturalKeys: ['anterne__01_06_2024'] }));
    const both = await data.admin.delete(`${APP}/data/readings${q({ naturalKeys: ['x'] })}`, { body: differing });
    expect([both.status, both.body.code]).toEqual([400, 'CONFLICTING_PARAMETERS']);
    const filtered = new FormData();
    filtered.append(
      'downloadDatasetQuery',
      JSON.stringify({ componentFilters: [{ componentKey: 'note', filters: ['calm'] }] }),
    );
    const byFilter = await data.admin.delete(`${APP}/data/readings`, { body: filtered });
    expect([byFilter.status, byFilter.body.code]).toEqual([400, 'DELETION_NEEDS_ROW_IDS_OR_NATURAL_KEYS']);
    const notJson = new FormData();
    notJson.append('downloadDatasetQuery', '{naturalKeys');
    expect((await data.admin.delete(`${APP}/data/readings`, { body: notJson })).status).toBe(400);
    const withFile = new FormData();
    withFile.append('file', new Blob(['x'.repeat(10_000)]), 'noise.bin');
    withFile.append('downloadDatasetQuery', JSON.stringify({ naturalKeys: ['nothing'] }));
    const fileToo = await data.admin.delete(`${APP}/data/readings`, { body: withFile });
    expect(fileToo.status, fileToo.text).toBe(200);
    expect(fileToo.body.deleted).toEqual([]);
    for (const body of ['[1,2]', '"text"', '{"downloadDatasetQuery": 12}', '{"downloadDatasetQuery": [1]}']) {
      const answer = await data.admin.request('DELETE', `${APP}/data/readings`, {
        body,
        headers: { 'Content-Type': 'application/json' },
      });
      expect(answer.status, body).toBeGreaterThanOrEqual(400);
      expect(answer.status, body).toBeLessThan(500);
    }
    const notUuids = await data.admin.delete(`${APP}/data/readings${q({ rowIds: ['not-a-uuid', "'; drop"] })}`);
    expect([notUuids.status, notUuids.body.deleted]).toEqual([200, []]);
    const cut = await data.admin.request('DELETE', `${APP}/data/readings`, {
      body: '--b\r\nContent-Disposition: form-data; name="downloadDatasetQuery"\r\n\r\n{"naturalKeys"',
      headers: { 'Content-Type': 'multipart/form-data; boundary=b' },
    });
    expect(cut.status).toBeGreaterThanOrEqual(400);
    expect(cut.status).toBeLessThan(500);
    expect(await readingKeys()).toEqual(['anterne__01_06_2024']);
  });
});

describe('a reference read without a limit', () => {
  it('answers every row, streamed across export pages, in the page shape; with a limit, one page', async () => {
    const all = await data.admin.get(`${APP}/references/habitats`);
    expect(all.status).toBe(200);
    expect(all.body.referenceType).toBe('habitats');
    expect(all.body.referenceValues).toHaveLength(HABITATS);
    expect(new Set(all.body.referenceValues.map((row: { naturalKey: string }) => row.naturalKey)).size).toBe(HABITATS);
    const json = await data.admin.get(`${APP}/references/habitats/json`);
    expect(all.body).toEqual(json.body);
    const filtered = await data.admin.get(
      `${APP}/references/habitats${q({ componentFilters: [{ componentKey: 'label_en', filters: ['Lake'] }] })}`,
    );
    expect(filtered.body.referenceValues.map((row: { naturalKey: string }) => row.naturalKey)).toEqual(['lake']);
    const page = await data.admin.get(`${APP}/references/habitats${q({ limit: 10 })}`);
    expect(page.body.referenceValues).toHaveLength(10);
    expect(page.body.totalRows).toBe(HABITATS);
  });
});

describe('filters by regular expression (isRegExp)', () => {
  it('are refused on every row path, rather than compared as exact texts', async () => {
    const query = { limit: 10, componentFilters: [{ componentKey: 'label', filters: ['^Lac.*'], isRegExp: true }] };
    for (const path of [
      `${APP}/references/stations${q(query)}`,
      `${APP}/references/stations/json${q(query)}`,
      `${APP}/references/stations/csv${q(query)}`,
      `${APP}/references/stations/zip${q(query)}`,
      `${APP}/data/stations/json${q(query)}`,
      `${APP}/data/readings/json${q({ componentFilters: [{ componentKey: 'note', filters: ['c.*'], isRegExp: 'true' }] })}`,
    ]) {
      const answer = await data.admin.get(path);
      expect(answer.status, path).toBe(400);
      expect(answer.body).toMatchObject({
        code: 'UNSUPPORTED_PARAMETER',
        params: { parameter: 'componentFilters[].isRegExp' },
      });
    }
    const deletion = await data.admin.delete(
      `${APP}/data/readings${q({ naturalKeys: ['anterne__01_06_2024'], componentFilters: [{ componentKey: 'note', filters: ['.*'], isRegExp: true }] })}`,
    );
    expect(deletion.status).toBe(400);
    const plain = await data.admin.get(
      `${APP}/references/stations${q({ limit: 10, componentFilters: [{ componentKey: 'label', filters: ['Vallot'], isRegExp: false }] })}`,
    );
    expect(plain.body.referenceValues).toHaveLength(1);
  });
});

describe('additional files selected as additionalFilesInfos', () => {
  let alpha: string;
  beforeAll(async () => {
    const ids: string[] = [];
    for (const name of ['alpha', 'beta']) {
      const form = new FormData();
      form.append(
        'params',
        JSON.stringify({ id: null, fileName: `${name}.pdf`, comment: name, fields: { title: name } }),
      );
      form.append('file', new Blob(['%PDF-1.4\n%%EOF\n'], { type: 'application/pdf' }), `${name}.pdf`);
      const created = await data.admin.post(`${APP}/additionalFiles/notes`, { body: form });
      expect(created.status, created.text).toBe(201);
      ids.push(created.body.id);
    }
    alpha = ids[0]!;
  });
  const alias = (value: object) => `additionalFilesInfos=${encodeURIComponent(JSON.stringify(value))}`;
  const params = (value: object) => `params=${encodeURIComponent(JSON.stringify(value))}`;

  it('reads it as params on the list and the download', async () => {
    const listed = await data.admin.get(`${APP}/additionalFiles/notes?${alias({ uuids: [alpha] })}`);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.additionalBinaryFiles.map((file: { id: string }) => file.id)).toEqual([alpha]);
    const zip = await data.admin.get(`${APP}/additionalFiles?${alias({ uuids: [alpha] })}`);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
  });

  it('refuses params and additionalFilesInfos that differ, and a malformed alias', async () => {
    for (const path of [
      `${APP}/additionalFiles/notes?${params({ uuids: [alpha] })}&${alias({ uuids: [] })}`,
      `${APP}/additionalFiles?${params({ uuids: [alpha] })}&${alias({ fileNames: ['beta.pdf'] })}`,
    ]) {
      const answer = await data.admin.get(path);
      expect([answer.status, answer.body.code], path).toEqual([400, 'CONFLICTING_PARAMETERS']);
    }
    const same = await data.admin.get(
      `${APP}/additionalFiles/notes?${params({ uuids: [alpha] })}&${alias({ uuids: [alpha] })}`,
    );
    expect(same.status).toBe(200);
    const malformed = await data.admin.get(`${APP}/additionalFiles/notes?additionalFilesInfos=%7Bnope`);
    expect(malformed.status).toBe(400);
  });

  it('deletes the files a form body selects, under either name', async () => {
    const refused = await data.admin.delete(`${APP}/additionalFiles`);
    expect(refused.status).toBe(400);
    const form = new FormData();
    form.append('additionalFilesInfos', JSON.stringify({ uuids: [alpha] }));
    const deleted = await data.admin.delete(`${APP}/additionalFiles`, { body: form });
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.text).toBe(alpha);
    const left = await data.admin.get(`${APP}/additionalFiles/notes`);
    expect(left.body.additionalBinaryFiles.map((file: { fileName: string }) => file.fileName)).toEqual(['beta.pdf']);
  });
});

describe('parameters the original reads and Terrain does not', () => {
  it('refuses several keys for one scope in filesOnRepository', async () => {
    const repository = (value: object) =>
      `${APP}/filesOnRepository/readings?repositoryId=${encodeURIComponent(JSON.stringify(value))}`;
    const several = await data.admin.get(repository({ requiredAuthorizations: { station: ['anterne', 'gers'] } }));
    expect(several.status).toBe(400);
    expect(several.body).toMatchObject({ code: 'UNSUPPORTED_PARAMETER' });
    const one = await data.admin.get(repository({ requiredAuthorizations: { station: ['anterne'] } }));
    expect(one.status, one.text).toBe(200);
  });

  it('refuses a rights-request list filtered by an interval', async () => {
    const list = (value: unknown) =>
      data.admin.get(`${APP}/rightsRequest?params=${encodeURIComponent(JSON.stringify(value))}`);
    const interval = await list({ fieldFilters: [{ field: 'organisation', intervalValues: { from: 'a', to: 'b' } }] });
    expect(interval.status).toBe(400);
    expect(interval.body).toMatchObject({
      code: 'UNSUPPORTED_PARAMETER',
      params: { parameter: 'fieldFilters[].intervalValues' },
    });
    expect((await list({ fieldFilters: [{ field: 'organisation', intervalValues: null }] })).status).toBe(200);
    expect((await list({ fieldFilters: [{ field: 'organisation', intervalValues: 7 }] })).status).toBe(400);
  });

  it('reads the days of a granted period in timeScope.format, and refuses days that do not match it', async () => {
    const grant = (timeScope: object) =>
      data.admin.post(`${APP}/authorization`, {
        json: {
          name: `period ${JSON.stringify(timeScope)}`,
          usersId: [ROOT.login],
          authorizationsWithRestriction: { readings: { operationTypes: ['extraction'], timeScope } },
        },
      });
    const us = await grant({ format: 'MM/dd/yyyy', fromDay: '01/12/1984', toDay: '12/31/1984' });
    expect(us.status, us.text).toBe(201);
    const stored = await data.admin.get(`${APP}/authorization/${us.body.authorizationId}`);
    expect(stored.text).toContain('1984-01-12');
    expect(stored.text).toContain('1984-12-31');
    for (const timeScope of [
      { format: 'MM/dd/yyyy', fromDay: '31/12/1984' },
      { format: 'yyyy-MM-dd', fromDay: '01/12/1984' },
      { format: 'not a pattern ]]', fromDay: '01/12/1984' },
      { format: 'x'.repeat(1_000), fromDay: '01/12/1984' },
    ]) {
      const answer = await grant(timeScope);
      expect(answer.status, JSON.stringify(timeScope)).toBeGreaterThanOrEqual(400);
      expect(answer.status, JSON.stringify(timeScope)).toBeLessThan(500);
    }
    const plain = await grant({ fromDay: '01/12/1984' });
    expect(plain.status).toBe(201);
    expect((await data.admin.get(`${APP}/authorization/${plain.body.authorizationId}`)).text).toContain('1984-12-01');
  });
});

describe('the original name of the administrator role', () => {
  it('is read as terrainAdmin by PUT and DELETE /authorization/{role}', async () => {
    const { login } = await activeAccount(data.server);
    const granted = await data.admin.put(`/authorization/openAdomAdmin?userIdOrLogin=${login}`);
    expect(granted.status, granted.text).toBe(200);
    expect(granted.body.terrainAdmin).toBe(true);
    const revoked = await data.admin.delete(`/authorization/openAdomAdmin?userIdOrLogin=${login}`);
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.body.terrainAdmin).toBe(false);
    expect((await data.admin.put(`/authorization/openadomadmin?userIdOrLogin=${login}`)).status).toBe(400);
  });
});
