import { readFileSync } from 'node:fs';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeAccount, GENEROUS_RATE_LIMITS, newIdentity, signedIn } from './accountFixtures.ts';
import { expectNoLeakInRecordedAnswers, type ApiClient } from './apiClient.ts';
import { startTestServer, type TestServer } from './harness.ts';
import { additionalFilesZip } from '../../server/services/additionalFilesZip.ts';

/**
 * Additional files over HTTP (issue 10): the types of fieldbook.yaml (protocols: a required text, a required
 * date and a reference to sites; photos: a text with a pattern, a date, an integer within bounds), created,
 * updated, listed with filters and pages, downloaded alone or zipped, deleted; every refusal with its code and
 * nothing changed; rights per type; authorizations; idempotent replays.
 */

const fixtures = path.resolve(import.meta.dirname, '../fixtures/configurations');
const MAX_BYTES = 64 * 1024;
const APP = '/applications/fieldbook';
const PDF = new TextEncoder().encode('%PDF-1.4\nprotocol of the bird counts\n%%EOF\n');

let server: TestServer;
let admin: ApiClient;
const people: Record<
  'depositor' | 'otherDepositor' | 'photoAdmin' | 'deleter' | 'reader' | 'stranger',
  { client: ApiClient; login: string; id: string }
> = {} as never;

function fileForm(params: object | string | undefined, file?: { name: string; bytes: Uint8Array; type?: string }) {
  const form = new FormData();
  if (params !== undefined) form.append('params', typeof params === 'string' ? params : JSON.stringify(params));
  if (file)
    form.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'application/pdf' }), file.name);
  return form;
}

const protocol = (overrides: Record<string, unknown> = {}) => ({
  id: null,
  fileName: 'counting birds.pdf',
  comment: 'The protocol of 2024',
  fields: { title: 'Counting birds', issued: '15/03/2024', site: 'lac_blanc' },
  forApplication: false,
  ...overrides,
});

const selection = (value: object) => `?params=${encodeURIComponent(JSON.stringify(value))}`;

async function create(client: ApiClient, type: string, params: object, bytes = PDF, name = 'upload.pdf') {
  const answer = await client.post(`${APP}/additionalFiles/${type}`, { body: fileForm(params, { name, bytes }) });
  expect(answer.status, answer.text).toBe(201);
  return answer.body.id as string;
}

/** Everything the additional_files table holds for the application, to compare before and after a refusal. */
async function storedFiles() {
  return server.server.ctx.db
    .selectFrom('additional_files as f')
    .innerJoin('applications as a', 'a.id', 'f.application_id')
    .select([
      'f.id',
      'f.file_type',
      'f.file_name',
      'f.size',
      'f.content_id',
      'f.comment',
      'f.fields',
      'f.associates',
      'f.for_application',
      'f.owner_id',
      'f.updated_at',
    ])
    .where('a.name', '=', 'fieldbook')
    .orderBy('f.id')
    .execute();
}

async function raw(client: ApiClient, apiPath: string, init: RequestInit = {}) {
  const response = await fetch(`${server.url}/api/v1${apiPath}`, {
    ...init,
    headers: { cookie: client.cookieHeader, ...(init.headers as Record<string, string>) },
  });
  return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) };
}

async function grantFiles(name: string, login: string, additionalFiles: Record<string, string[]>) {
  const answer = await admin.post(`${APP}/additionalFiles/authorization`, {
    json: { uuid: null, name, usersId: [login], additionalFiles },
  });
  expect(answer.status, answer.text).toBe(201);
  return answer.body.authorizationId as string;
}

beforeAll(async () => {
  server = await startTestServer({
    admin: { login: 'root', password: 'root-password', email: 'root@terrain.test' },
    additionalFileMaxBytes: MAX_BYTES,
    ...GENEROUS_RATE_LIMITS,
  });
  admin = await signedIn(server, { login: 'root', password: 'root-password' });
  const configuration = readFileSync(path.join(fixtures, 'fieldbook.yaml'));
  const created = await admin.post('/applications/fieldbook', {
    body: fileForm(undefined, { name: 'fieldbook.yaml', bytes: configuration, type: 'application/yaml' }),
  });
  expect(created.text).toContain('"type":"result"');
  const sites = fileForm(undefined, {
    name: 'sites.csv',
    bytes: new TextEncoder().encode('code;label\nlac_blanc;Lac Blanc\nmont_joly;Mont Joly\n'),
    type: 'text/csv',
  });
  expect((await admin.post(`${APP}/references/sites`, { body: sites })).status).toBe(201);
  for (const role of ['depositor', 'otherDepositor', 'photoAdmin', 'deleter', 'reader', 'stranger'] as const) {
    const account = await activeAccount(server, newIdentity(role.toLowerCase()));
    const client = await signedIn(server, account);
    const me = await client.get('/me');
    people[role] = { client, login: account.login, id: me.body.id };
  }
  await grantFiles('deposit protocols', people.depositor.login, { depot: ['protocols'] });
  await grantFiles('deposit protocols too', people.otherDepositor.login, { depot: ['protocols'] });
  await grantFiles('photo administration', people.photoAdmin.login, { admin: ['photos'] });
  await grantFiles('protocol cleaning', people.deleter.login, { delete: ['protocols'] });
  const reading = await admin.post(`${APP}/authorization`, {
    json: {
      uuid: null,
      name: 'counts reading',
      usersId: [people.reader.login],
      authorizationForAll: { counts: ['extraction'] },
    },
  });
  expect(reading.status, reading.text).toBe(201);
});

afterAll(async () => {
  expectNoLeakInRecordedAnswers();
  await server?.close();
});

describe('additional files', () => {
  it('list the types with their forms, counts and the caller’s rights; strangers and visitors are refused', async () => {
    const overview = await people.depositor.client.get(`${APP}/additionalFiles`);
    expect(overview.status, overview.text).toBe(200);
    expect(overview.body.fileNames).toEqual(['protocols', 'photos']);
    const protocols = overview.body.additionalFileTypes[0];
    expect(protocols.fields.map((f: { name: string }) => f.name)).toEqual(['title', 'issued', 'site']);
    expect(protocols.rights).toEqual({ admin: false, depot: true, extraction: false, delete: false });
    expect(overview.body.additionalFileTypes[1].rights.depot).toBe(false);
    expect(overview.body.managesFileRights).toBe(false);

    const withTrees = await admin.get(`${APP}/additionalFiles?grantable=true`);
    expect(withTrees.body.referenceScopes.counts[0].nodes.map((n: { naturalKey: string }) => n.naturalKey)).toEqual([
      'lac_blanc',
      'mont_joly',
    ]);
    expect(withTrees.body.managesFileRights).toBe(true);

    expect((await people.reader.client.get(`${APP}/additionalFiles`)).status).toBe(200);
    const refused = await people.stranger.client.get(`${APP}/additionalFiles`);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('NO_RIGHT_FOR_ADDITIONAL_FILES');
    const visitor = await fetch(`${server.url}/api/v1${APP}/additionalFiles`);
    expect(visitor.status).toBe(401);
  });

  it('create a file with its form values, owner, size and name; the list shows it', async () => {
    const id = await create(
      people.depositor.client,
      'protocols',
      protocol({ fields: { title: ' Counting birds ', issued: '15/03/2024', site: 'lac_blanc' } }),
    );
    const list = await people.reader.client.get(`${APP}/additionalFiles/protocols`);
    expect(list.status, list.text).toBe(200);
    expect(list.body.totalCount).toBe(1);
    expect(list.body.fileNames).toEqual(['counting birds.pdf']);
    expect(list.body.fieldChoices.site).toEqual([
      { naturalKey: 'lac_blanc', label: 'Lac Blanc' },
      { naturalKey: 'mont_joly', label: 'Mont Joly' },
    ]);
    const [file] = list.body.additionalBinaryFiles;
    expect(file).toMatchObject({
      id,
      fileType: 'protocols',
      fileName: 'counting birds.pdf',
      size: PDF.byteLength,
      contentType: 'application/pdf',
      comment: 'The protocol of 2024',
      user: people.depositor.id,
      ownerLogin: people.depositor.login,
      forApplication: false,
      associates: {},
      additionalBinaryFileForm: { title: 'Counting birds', issued: '15/03/2024', site: 'lac_blanc' },
      mayEdit: false,
      mayDelete: false,
    });
    expect(list.body.users).toEqual([{ id: people.depositor.id, label: people.depositor.login }]);
    const one = await people.depositor.client.get(`${APP}/additionalFiles/protocols/${id}`);
    expect(one.body).toMatchObject({ id, mayEdit: true, mayDelete: true, format: { fields: expect.any(Array) } });
  });

  it('refuse every bad upload with its code, and store nothing', async () => {
    const before = await storedFiles();
    const photoCases = new Set(['an altitude above the maximum', 'a depositor of protocols adding a photo']);
    const cases: Array<[string, ApiClient, FormData, number, string, Record<string, unknown>?]> = [
      ['no file when new', admin, fileForm(protocol({ fileName: 'nothing.pdf' })), 400, 'ADDITIONAL_FILE_REQUIRED'],
      [
        'a name with a slash',
        admin,
        fileForm(protocol({ fileName: 'a/b.pdf' }), { name: 'a.pdf', bytes: PDF }),
        400,
        'INVALID_ADDITIONAL_FILE_NAME',
      ],
      [
        'a hidden name',
        admin,
        fileForm(protocol({ fileName: '.protocol.pdf' }), { name: 'a.pdf', bytes: PDF }),
        400,
        'INVALID_ADDITIONAL_FILE_NAME',
      ],
      [
        'a device name of Windows',
        admin,
        fileForm(protocol({ fileName: 'Nul.pdf' }), { name: 'a.pdf', bytes: PDF }),
        400,
        'INVALID_ADDITIONAL_FILE_NAME',
      ],
      [
        'no comment',
        admin,
        fileForm(protocol({ fileName: 'x.pdf', comment: '  ' }), { name: 'x.pdf', bytes: PDF }),
        400,
        'ADDITIONAL_FILE_COMMENT_REQUIRED',
      ],
      [
        'a required field left empty',
        admin,
        fileForm(protocol({ fileName: 'x.pdf', fields: { issued: '15/03/2024' } }), { name: 'x.pdf', bytes: PDF }),
        400,
        'INVALID_ADDITIONAL_FILE_FIELD',
        { field: 'title', problem: 'requiredValueWithComponent' },
      ],
      [
        'a date in another pattern',
        admin,
        fileForm(protocol({ fileName: 'x.pdf', fields: { title: 't', issued: '2024-03-15' } }), {
          name: 'x.pdf',
          bytes: PDF,
        }),
        400,
        'INVALID_ADDITIONAL_FILE_FIELD',
        { field: 'issued', problem: 'invalidDateWithComponent' },
      ],
      [
        'a site that does not exist',
        admin,
        fileForm(protocol({ fileName: 'x.pdf', fields: { title: 't', issued: '15/03/2024', site: 'nowhere' } }), {
          name: 'x.pdf',
          bytes: PDF,
        }),
        400,
        'INVALID_ADDITIONAL_FILE_FIELD',
        { field: 'site', problem: 'invalidReferenceWithComponent' },
      ],
      [
        'an altitude above the maximum',
        admin,
        fileForm(
          { fileName: 'x.jpg', comment: 'c', fields: { caption: 'Lake', altitude: '6000' } },
          { name: 'x.jpg', bytes: PDF },
        ),
        400,
        'INVALID_ADDITIONAL_FILE_FIELD',
        { field: 'altitude', problem: 'badIntervalIntegerWithComponent' },
      ],
      [
        'a field the type does not have',
        admin,
        fileForm(protocol({ fileName: 'x.pdf', fields: { title: 't', issued: '15/03/2024', author: 'me' } }), {
          name: 'x.pdf',
          bytes: PDF,
        }),
        400,
        'UNKNOWN_ADDITIONAL_FILE_FIELD',
      ],
      [
        'a name already taken, case aside',
        admin,
        fileForm(protocol({ fileName: 'Counting Birds.PDF' }), { name: 'x.pdf', bytes: PDF }),
        409,
        'ADDITIONAL_FILE_EXISTS',
        { name: 'Counting Birds.PDF' },
      ],
      [
        'an empty file',
        admin,
        fileForm(protocol({ fileName: 'x.pdf' }), { name: 'x.pdf', bytes: new Uint8Array() }),
        400,
        'EMPTY_FILE',
      ],
      [
        'a file over the limit',
        admin,
        fileForm(protocol({ fileName: 'x.pdf' }), { name: 'x.pdf', bytes: new Uint8Array(MAX_BYTES + 1) }),
        413,
        'FILE_TOO_LARGE',
      ],
      [
        'associates naming unknown data',
        admin,
        fileForm(protocol({ fileName: 'x.pdf', associates: { nothing: { scopes: {} } } }), {
          name: 'x.pdf',
          bytes: PDF,
        }),
        400,
        'UNKNOWN_DATA',
      ],
      [
        'params that are not JSON',
        admin,
        fileForm('{', { name: 'x.pdf', bytes: PDF }),
        400,
        'BAD_ADDITIONAL_FILE_PARAMS',
        { reason: 'json' },
      ],
      [
        // 2,000 associations: more than a form part may hold, refused as such rather than read cut as broken JSON.
        'params longer than a form part',
        admin,
        fileForm(
          protocol({
            associates: Array.from({ length: 2_000 }, (_, i) => ({ dataType: 'counts', naturalKey: `site${i}` })),
          }),
          { name: 'x.pdf', bytes: PDF },
        ),
        413,
        'PAYLOAD_TOO_LARGE',
        { field: 'params', maxBytes: 65_536 },
      ],
      [
        'params that are not an object',
        admin,
        fileForm('[]', { name: 'x.pdf', bytes: PDF }),
        400,
        'BAD_ADDITIONAL_FILE_PARAMS',
        { reason: 'object' },
      ],
      [
        'params whose file name is not a text',
        admin,
        fileForm(protocol({ fileName: 7 }), { name: 'x.pdf', bytes: PDF }),
        400,
        'BAD_ADDITIONAL_FILE_PARAMS',
        { reason: 'fileName' },
      ],
      [
        'params whose fields are a list',
        admin,
        fileForm(protocol({ fields: ['t'] }), { name: 'x.pdf', bytes: PDF }),
        400,
        'BAD_ADDITIONAL_FILE_PARAMS',
        { reason: 'fields' },
      ],
      [
        'params naming another type',
        admin,
        fileForm(protocol({ fileName: 'x.pdf', fileType: 'photos' }), { name: 'x.pdf', bytes: PDF }),
        400,
        'BAD_ADDITIONAL_FILE_PARAMS',
      ],
      [
        'a reader without deposit right',
        people.reader.client,
        fileForm(protocol({ fileName: 'x.pdf' }), { name: 'x.pdf', bytes: PDF }),
        403,
        'NO_RIGHT_FOR_ADDITIONAL_FILE_DEPOSIT',
      ],
      [
        'a depositor of protocols adding a photo',
        people.depositor.client,
        fileForm({ fileName: 'x.jpg', comment: 'c', fields: { caption: 'Lake' } }, { name: 'x.jpg', bytes: PDF }),
        403,
        'NO_RIGHT_FOR_ADDITIONAL_FILE_DEPOSIT',
      ],
      [
        'a stranger',
        people.stranger.client,
        fileForm(protocol({ fileName: 'x.pdf' }), { name: 'x.pdf', bytes: PDF }),
        403,
        'NO_RIGHT_FOR_ADDITIONAL_FILES',
      ],
    ];
    for (const [what, client, body, status, code, params] of cases) {
      const type = photoCases.has(what) ? 'photos' : 'protocols';
      const answer = await client.post(`${APP}/additionalFiles/${type}`, { body });
      expect([what, answer.status, answer.body?.code], answer.text).toEqual([what, status, code]);
      if (params) expect(answer.body.params, what).toMatchObject(params);
    }
    const notMultipart = await admin.post(`${APP}/additionalFiles/protocols`, { json: protocol() });
    expect(notMultipart.status).toBe(415);
    expect(
      (
        await admin.post(`${APP}/additionalFiles/minutes`, {
          body: fileForm(protocol(), { name: 'x.pdf', bytes: PDF }),
        })
      ).body.code,
    ).toBe('NO_SUCH_ADDITIONAL_FILE_TYPE');
    expect((await admin.get(`${APP}/additionalFiles/__charte__`)).body.code).toBe('CHARTER_TYPE_RESERVED');
    expect(await storedFiles()).toEqual(before);
  });

  it('update a file: without a file the stored one stays; with one it is replaced; a refused update changes nothing', async () => {
    const id = await create(people.depositor.client, 'protocols', protocol({ fileName: 'update me.pdf' }));
    const kept = await people.depositor.client.post(`${APP}/additionalFiles/protocols`, {
      body: fileForm(
        protocol({
          id,
          fileName: 'updated.pdf',
          comment: 'Second reading',
          fields: { title: 'Counting birds, again', issued: '16/03/2024' },
        }),
      ),
    });
    expect(kept.status, kept.text).toBe(200);
    expect(kept.body).toEqual({ id, fileName: 'updated.pdf' });
    const afterUpdate = await people.depositor.client.get(`${APP}/additionalFiles/protocols/${id}`);
    expect(afterUpdate.body).toMatchObject({
      fileName: 'updated.pdf',
      comment: 'Second reading',
      size: PDF.byteLength,
      additionalBinaryFileForm: { title: 'Counting birds, again', issued: '16/03/2024' },
    });
    expect((await raw(people.depositor.client, `${APP}/additionalFiles/protocols/${id}/content`)).bytes).toEqual(PDF);

    const replacement = new TextEncoder().encode('%PDF-1.4\nsecond version\n');
    const replaced = await people.depositor.client.post(`${APP}/additionalFiles/protocols`, {
      body: fileForm(protocol({ id, fileName: 'updated.pdf' }), { name: 'v2.pdf', bytes: replacement }),
    });
    expect(replaced.status, replaced.text).toBe(200);
    expect((await raw(people.depositor.client, `${APP}/additionalFiles/protocols/${id}/content`)).bytes).toEqual(
      replacement,
    );

    const before = await storedFiles();
    const refused = await people.depositor.client.post(`${APP}/additionalFiles/protocols`, {
      body: fileForm(protocol({ id, fileName: 'updated.pdf', fields: { title: 'x', issued: 'yesterday' } }), {
        name: 'v3.pdf',
        bytes: PDF,
      }),
    });
    expect(refused.status).toBe(400);
    const renamedOnto = await people.depositor.client.post(`${APP}/additionalFiles/protocols`, {
      body: fileForm(protocol({ id, fileName: 'counting birds.pdf' })),
    });
    expect(renamedOnto.status).toBe(409);
    const otherDepositor = await people.otherDepositor.client.post(`${APP}/additionalFiles/protocols`, {
      body: fileForm(protocol({ id, fileName: 'mine now.pdf' })),
    });
    expect([otherDepositor.status, otherDepositor.body.code]).toEqual([403, 'NO_RIGHT_FOR_ADDITIONAL_FILE_CHANGE']);
    const unknown = await admin.post(`${APP}/additionalFiles/protocols`, {
      body: fileForm(protocol({ id: '00000000-0000-4000-8000-000000000000' })),
    });
    expect(unknown.body.code).toBe('NO_SUCH_ADDITIONAL_FILE');
    expect(await storedFiles()).toEqual(before);
  });

  it('give rights per type: an admin of photos changes anyone’s photos but no protocol', async () => {
    const photo = await create(admin, 'photos', {
      fileName: 'lake.jpg',
      comment: 'The lake in June',
      fields: { caption: 'Lac Blanc, June', taken: '01/06/2024', altitude: '2352' },
    });
    const changed = await people.photoAdmin.client.post(`${APP}/additionalFiles/photos`, {
      body: fileForm({
        id: photo,
        fileName: 'lake.jpg',
        comment: 'Renamed by the photo admin',
        fields: { caption: 'Lac Blanc' },
      }),
    });
    expect(changed.status, changed.text).toBe(200);
    // The file stays its author's, and says who changed it last.
    const listed = await admin.get(`${APP}/additionalFiles/photos${selection({ uuids: [photo] })}`);
    expect(listed.body.additionalBinaryFiles).toEqual([
      expect.objectContaining({ ownerLogin: 'root', updatedByLogin: people.photoAdmin.login }),
    ]);
    const protocols = await people.photoAdmin.client.post(`${APP}/additionalFiles/protocols`, {
      body: fileForm(protocol({ fileName: 'p.pdf' }), { name: 'p.pdf', bytes: PDF }),
    });
    expect(protocols.body.code).toBe('NO_RIGHT_FOR_ADDITIONAL_FILE_DEPOSIT');
    const badCaption = await admin.post(`${APP}/additionalFiles/photos`, {
      body: fileForm(
        { fileName: 'bad.jpg', comment: 'c', fields: { caption: 'Lake <script>' } },
        { name: 'bad.jpg', bytes: PDF },
      ),
    });
    expect(badCaption.body.params).toMatchObject({ field: 'caption', problem: 'patternNotMatchedWithComponent' });
  });

  it('filter the list on form values and page it', async () => {
    for (const [title, issued] of [
      ['Wetland survey', '01/01/2023'],
      ['Nest survey', '10/06/2024'],
      ['Ringing guide', '20/09/2024'],
    ]) {
      await create(admin, 'protocols', protocol({ fileName: `${title}.pdf`, fields: { title, issued } }));
    }
    const infos = (filters: object[], page: object = {}) =>
      selection({ additionalFilesInfos: { protocols: { fieldFilters: filters } }, ...page });
    const titles = (answer: {
      body: { additionalBinaryFiles: Array<{ additionalBinaryFileForm: { title: string } }> };
    }) => answer.body.additionalBinaryFiles.map((f) => f.additionalBinaryFileForm.title);
    const surveys = await admin.get(`${APP}/additionalFiles/protocols${infos([{ field: 'title', filter: 'SURVEY' }])}`);
    expect(titles(surveys)).toEqual(['Nest survey', 'Wetland survey']);
    const in2024 = await admin.get(
      `${APP}/additionalFiles/protocols${infos([{ field: 'issued', intervalValues: { from: '01/06/2024', to: '31/12/2024' } }])}`,
    );
    expect(titles(in2024).sort()).toEqual(['Nest survey', 'Ringing guide']);
    const regexp = await admin.get(
      `${APP}/additionalFiles/protocols${infos([{ field: 'title', filter: '^(Nest|Ringing)', isRegExp: true }])}`,
    );
    expect(titles(regexp)).toEqual(['Nest survey', 'Ringing guide']);
    const page = await admin.get(`${APP}/additionalFiles/protocols${selection({ offset: 1, limit: 2 })}`);
    expect(page.body.totalCount).toBeGreaterThanOrEqual(5);
    expect(page.body.additionalBinaryFiles).toHaveLength(2);
    const all = await admin.get(`${APP}/additionalFiles/protocols`);
    expect(page.body.additionalBinaryFiles.map((f: { id: string }) => f.id)).toEqual(
      all.body.additionalBinaryFiles.slice(1, 3).map((f: { id: string }) => f.id),
    );
    const badRegexp = await admin.get(
      `${APP}/additionalFiles/protocols${infos([{ field: 'title', filter: '(', isRegExp: true }])}`,
    );
    expect([badRegexp.status, badRegexp.body.code]).toEqual([400, 'BAD_FILES_QUERY']);
  });

  it('download one file as it was sent, as an attachment; types a browser could run come as plain bytes', async () => {
    const id = await create(admin, 'protocols', protocol({ fileName: 'relevé été.pdf' }), PDF, 'relevé été.pdf');
    const download = await raw(people.reader.client, `${APP}/additionalFiles/protocols/${id}/content`);
    expect(download.status).toBe(200);
    expect(download.bytes).toEqual(PDF);
    expect(download.headers.get('content-type')).toBe('application/pdf');
    expect(download.headers.get('content-disposition')).toBe(
      `attachment; filename="relev_ _t_.pdf"; filename*=UTF-8''${encodeURIComponent('relevé été.pdf')}`,
    );
    const page = await admin.post(`${APP}/additionalFiles/protocols`, {
      body: fileForm(protocol({ fileName: 'page.html' }), {
        name: 'page.html',
        bytes: new TextEncoder().encode('<script>alert(1)</script>'),
        type: 'text/html',
      }),
    });
    const served = await raw(people.reader.client, `${APP}/additionalFiles/protocols/${page.body.id}/content`);
    expect([
      served.headers.get('content-type'),
      served.headers.get('content-disposition')?.startsWith('attachment;'),
      served.headers.get('x-content-type-options'),
    ]).toEqual(['application/octet-stream', true, 'nosniff']);
    expect(page.status).toBe(201);
    // A vendor's type that is XML or XHTML underneath is a page a browser may run: plain bytes too.
    const servedAs = async (type: string, fileName: string) => {
      const saved = await admin.post(`${APP}/additionalFiles/protocols`, {
        body: fileForm(protocol({ fileName }), { name: fileName, bytes: new TextEncoder().encode('<x/>'), type }),
      });
      expect(saved.status, saved.text).toBe(201);
      return (await raw(admin, `${APP}/additionalFiles/protocols/${saved.body.id}/content`)).headers.get(
        'content-type',
      );
    };
    expect(await servedAs('application/vnd.wap.xhtml+xml', 'phone page.xhtml')).toBe('application/octet-stream');
    expect(await servedAs('application/vnd.mozilla.xul+xml', 'interface.xul')).toBe('application/octet-stream');
    expect(await servedAs('application/vnd.oasis.opendocument.text', 'report.odt')).toBe(
      'application/vnd.oasis.opendocument.text',
    );
    expect((await raw(people.stranger.client, `${APP}/additionalFiles/protocols/${id}/content`)).status).toBe(403);
    expect((await raw(admin, `${APP}/additionalFiles/photos/${id}/content`)).status).toBe(404);
  });

  it('zip a selection (additionalFile.zip): each file under its type, with their descriptions', async () => {
    const list = await admin.get(
      `${APP}/additionalFiles/protocols${selection({ additionalFilesInfos: { protocols: { fieldFilters: [{ field: 'title', filter: 'survey' }] } } })}`,
    );
    const ids = list.body.additionalBinaryFiles.map((f: { id: string }) => f.id);
    const photo = (await admin.get(`${APP}/additionalFiles/photos`)).body.additionalBinaryFiles[0];
    const zip = await raw(people.reader.client, `${APP}/additionalFiles${selection({ uuids: [...ids, photo.id] })}`);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-disposition')).toBe('attachment; filename="additionalFile.zip"');
    const files = unzipSync(zip.bytes);
    expect(Object.keys(files).sort()).toEqual([
      'additionalFiles.json',
      'photos/lake.jpg',
      'protocols/Nest survey.pdf',
      'protocols/Wetland survey.pdf',
    ]);
    expect(files['protocols/Nest survey.pdf']).toEqual(PDF);
    const described = JSON.parse(new TextDecoder().decode(files['additionalFiles.json']));
    expect(described.find((d: { path: string }) => d.path === 'photos/lake.jpg')).toMatchObject({
      id: photo.id,
      comment: 'Renamed by the photo admin',
      additionalBinaryFileForm: { caption: 'Lac Blanc' },
    });

    const byType = unzipSync((await raw(admin, `${APP}/additionalFiles${selection({ filetype: 'photos' })}`)).bytes);
    expect(Object.keys(byType).sort()).toEqual(['additionalFiles.json', 'photos/lake.jpg']);
    const nothing = await raw(
      admin,
      `${APP}/additionalFiles${selection({ uuids: ['00000000-0000-4000-8000-000000000000'] })}`,
    );
    expect(nothing.status).toBe(404);
  });

  it('edit a file stored under a name since refused, keeping the name; renaming to such a name is refused', async () => {
    const id = await create(admin, 'protocols', protocol({ fileName: 'old rules.pdf' }));
    // Stored before names beginning with a dot were refused.
    await server.server.ctx.db
      .updateTable('additional_files')
      .set({ file_name: '.old rules' })
      .where('id', '=', id)
      .execute();
    const kept = await admin.post(`${APP}/additionalFiles/protocols`, {
      body: fileForm(protocol({ id, fileName: '.old rules', comment: 'Edited under its old name' })),
    });
    expect(kept.status, kept.text).toBe(200);
    const renamed = await admin.post(`${APP}/additionalFiles/protocols`, {
      body: fileForm(protocol({ id, fileName: '.other', comment: 'Renamed' })),
    });
    expect([renamed.status, renamed.body.code]).toEqual([400, 'INVALID_ADDITIONAL_FILE_NAME']);
  });

  it('zip without a file deleted while the zip is written, nor its description', async () => {
    const kept = await create(admin, 'protocols', protocol({ fileName: 'zip a kept.pdf' }));
    const gone = await create(admin, 'protocols', protocol({ fileName: 'zip b gone.pdf' }));
    const db = server.server.ctx.db;
    const user = await db.selectFrom('users').selectAll().where('login', '=', 'root').executeTakeFirstOrThrow();
    const application = await db
      .selectFrom('applications')
      .selectAll()
      .where('name', '=', 'fieldbook')
      .executeTakeFirstOrThrow();
    const query = { uuids: [kept, gone], fileNames: [], filetype: null, fieldFilters: {}, offset: 0, limit: null };
    const chunks: Uint8Array[] = [];
    const zip = (await additionalFilesZip(server.server.ctx, user, application as never, query))[
      Symbol.asyncIterator
    ]();
    // The zip is written as it is read: the first file is under way when the second is deleted.
    const first = await zip.next();
    chunks.push(first.value!);
    expect((await admin.delete(`${APP}/additionalFiles${selection({ uuids: [gone] })}`)).status).toBe(200);
    for (let next = await zip.next(); !next.done; next = await zip.next()) chunks.push(next.value);
    const files = unzipSync(Buffer.concat(chunks));
    expect(Object.keys(files).sort()).toEqual(['additionalFiles.json', 'protocols/zip a kept.pdf']);
    const described = JSON.parse(new TextDecoder().decode(files['additionalFiles.json']));
    expect(described.map((d: { id: string }) => d.id)).toEqual([kept]);
  });

  it('select by the name its user reads: composed or decomposed alike, other letters or cases not', async () => {
    const id = await create(admin, 'protocols', protocol({ fileName: 'Carnet Ålesund été.pdf' }));
    // A name stored as a device decomposed it (macOS), before names were composed when saved.
    const decomposed = 'Carnet Ålesund été.pdf'.normalize('NFD');
    await server.server.ctx.db
      .updateTable('additional_files')
      .set({ file_name: decomposed })
      .where('id', '=', id)
      .execute();
    const listed = async (fileNames: string[]) => {
      const answer = await admin.get(`${APP}/additionalFiles/protocols${selection({ fileNames })}`);
      expect(answer.status, answer.text).toBe(200);
      return (answer.body.additionalBinaryFiles as Array<{ id: string }>).map((file) => file.id);
    };
    expect(await listed(['Carnet Ålesund été.pdf'.normalize('NFC')])).toEqual([id]);
    expect(await listed([decomposed])).toEqual([id]);
    expect(await listed(['carnet ålesund été.pdf', 'Carnet Alesund ete.pdf'])).toEqual([]);
    const zip = unzipSync(
      (await raw(admin, `${APP}/additionalFiles${selection({ fileNames: ['Carnet Ålesund été.pdf'] })}`)).bytes,
    );
    expect(Object.keys(zip).filter((name) => name.startsWith('protocols/'))).toHaveLength(1);
    expect(
      (await admin.delete(`${APP}/additionalFiles${selection({ fileNames: ['Carnet Ålesund été.pdf'] })}`)).text,
    ).toBe(id);
  });

  it('delete: the owner and holders of delete may, others not; a selection is deleted whole or not at all', async () => {
    const mine = await create(people.depositor.client, 'protocols', protocol({ fileName: 'mine.pdf' }));
    const theirs = await create(people.otherDepositor.client, 'protocols', protocol({ fileName: 'theirs.pdf' }));
    const before = await storedFiles();
    const mixed = await people.depositor.client.delete(`${APP}/additionalFiles${selection({ uuids: [mine, theirs] })}`);
    expect([mixed.status, mixed.body.code, mixed.body.params.fileName]).toEqual([
      403,
      'NO_RIGHT_FOR_ADDITIONAL_FILE_DELETE',
      'theirs.pdf',
    ]);
    expect((await people.reader.client.delete(`${APP}/additionalFiles${selection({ uuids: [mine] })}`)).status).toBe(
      403,
    );
    expect((await people.depositor.client.delete(`${APP}/additionalFiles`)).status).toBe(400);
    expect((await people.depositor.client.delete(`${APP}/additionalFiles${selection({})}`)).body.code).toBe(
      'BAD_FILES_QUERY',
    );
    expect(await storedFiles()).toEqual(before);

    const own = await people.depositor.client.delete(`${APP}/additionalFiles${selection({ uuids: [mine] })}`);
    expect(own.status, own.text).toBe(200);
    expect(own.text).toBe(mine);
    const byDeleter = await people.deleter.client.delete(
      `${APP}/additionalFiles${selection({ fileNames: ['theirs.pdf', 'Ringing guide.pdf'], filetype: 'protocols' })}`,
    );
    expect(byDeleter.status, byDeleter.text).toBe(200);
    expect(byDeleter.text.split(',')).toHaveLength(2);
    expect(byDeleter.text.split(',')).toContain(theirs);
    const again = await people.deleter.client.delete(`${APP}/additionalFiles${selection({ uuids: [theirs] })}`);
    expect([again.status, again.body.code]).toEqual([404, 'NO_SUCH_ADDITIONAL_FILE']);
  });

  it('replay an upload sent twice with one Idempotency-Key: one file, the same answer; another body with the key is refused', async () => {
    const body = () => fileForm(protocol({ fileName: 'sent twice.pdf' }), { name: 'x.pdf', bytes: PDF });
    const headers = { 'Idempotency-Key': 'additional-file-upload-1' };
    const first = await admin.post(`${APP}/additionalFiles/protocols`, { body: body(), headers });
    const second = await admin.post(`${APP}/additionalFiles/protocols`, { body: body(), headers });
    expect(first.status, first.text).toBe(201);
    expect([second.status, second.body, second.headers.get('idempotent-replayed')]).toEqual([201, first.body, 'true']);
    const named = (await storedFiles()).filter((f) => f.file_name === 'sent twice.pdf');
    expect(named).toHaveLength(1);
    const other = await admin.post(`${APP}/additionalFiles/protocols`, {
      body: fileForm(protocol({ fileName: 'something else.pdf' }), { name: 'x.pdf', bytes: PDF }),
      headers,
    });
    expect([other.status, other.body.code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    // A refused first attempt keeps nothing: the same key may carry the corrected upload.
    const refusedKey = { 'Idempotency-Key': 'additional-file-upload-2' };
    expect(
      (
        await admin.post(`${APP}/additionalFiles/protocols`, {
          body: fileForm(protocol({ fileName: 'sent twice.pdf' }), { name: 'x.pdf', bytes: PDF }),
          headers: refusedKey,
        })
      ).status,
    ).toBe(409);
    expect(
      (
        await admin.post(`${APP}/additionalFiles/protocols`, {
          body: fileForm(protocol({ fileName: 'corrected.pdf' }), { name: 'x.pdf', bytes: PDF }),
          headers: refusedKey,
        })
      ).status,
    ).toBe(201);
  });
});

describe('additional-file authorizations', () => {
  it('are saved with their dependencies and listed for managers; others see only those on the types they administer', async () => {
    const saved = await admin.post(`${APP}/additionalFiles/authorization`, {
      json: { uuid: null, name: 'cleaners', usersId: [people.stranger.id], additionalFiles: { delete: ['photos'] } },
    });
    expect(saved.status, saved.text).toBe(201);
    const list = await admin.get(`${APP}/additionalfiles/authorization`);
    expect(list.status).toBe(200);
    const cleaners = list.body.authorizationResults.find((a: { name: string }) => a.name === 'cleaners');
    expect(cleaners).toMatchObject({
      uuid: saved.body.authorizationId,
      users: [{ id: people.stranger.id, login: people.stranger.login }],
      additionalFiles: { delete: ['photos'], depot: ['photos'], extraction: ['photos'] },
    });
    expect(list.body.authorizationsForUser.isAdministrator).toBe(true);
    expect(list.body.users.length).toBeGreaterThan(5);

    const photoAdminList = await people.photoAdmin.client.get(`${APP}/additionalFiles/authorization`);
    expect(photoAdminList.body.authorizationResults.map((a: { name: string }) => a.name).sort()).toEqual([
      'cleaners',
      'photo administration',
    ]);
    expect(photoAdminList.body.authorizationsForUser).toMatchObject({ isAdministrator: false, adminTypes: ['photos'] });
    const one = await admin.get(`${APP}/additionalfiles/authorization?authorizationId=${saved.body.authorizationId}`);
    expect(one.body.authorizationResults).toHaveLength(1);
    const byUser = await admin.get(`${APP}/additionalfiles/authorization?userId=${people.depositor.login}`);
    expect(byUser.body.authorizationResults.map((a: { name: string }) => a.name)).toEqual(['deposit protocols']);

    expect((await people.depositor.client.get(`${APP}/additionalfiles/authorization`)).body.code).toBe(
      'NO_RIGHT_FOR_ADDITIONAL_FILES_RIGHTS',
    );
  });

  it('are given only on the types the granter administers, and refused with a code when incomplete', async () => {
    const photos = await people.photoAdmin.client.post(`${APP}/additionalFiles/authorization`, {
      json: {
        uuid: null,
        name: 'photo deposit',
        usersId: [people.reader.login],
        additionalFiles: { depot: ['photos'] },
      },
    });
    expect(photos.status, photos.text).toBe(201);
    const protocols = await people.photoAdmin.client.post(`${APP}/additionalFiles/authorization`, {
      json: {
        uuid: null,
        name: 'too much',
        usersId: [people.reader.login],
        additionalFiles: { depot: ['photos', 'protocols'] },
      },
    });
    expect([protocols.status, protocols.body.code, protocols.body.params.fileTypes]).toEqual([
      403,
      'NO_RIGHT_FOR_ADDITIONAL_FILES_RIGHTS',
      ['protocols'],
    ]);
    const protocolGrant = (await admin.get(`${APP}/additionalfiles/authorization`)).body.authorizationResults.find(
      (a: { name: string }) => a.name === 'deposit protocols',
    );
    const edit = await people.photoAdmin.client.post(`${APP}/additionalFiles/authorization`, {
      json: {
        uuid: protocolGrant.uuid,
        name: 'taken over',
        usersId: [people.reader.login],
        additionalFiles: { depot: ['photos'] },
      },
    });
    expect(edit.status).toBe(403);
    expect(
      (await people.photoAdmin.client.delete(`${APP}/additionalFiles/authorization/${protocolGrant.uuid}`)).status,
    ).toBe(404);

    const refusals: Array<[object, string]> = [
      [
        { uuid: null, name: ' ', usersId: [people.reader.login], additionalFiles: { depot: ['photos'] } },
        'NO_AUTHORIZATION_NAME',
      ],
      [{ uuid: null, name: 'x', usersId: [], additionalFiles: { depot: ['photos'] } }, 'NO_AUTHORIZATION_USER'],
      [
        { uuid: null, name: 'x', usersId: [people.reader.login], additionalFiles: { depot: ['minutes'] } },
        'UNKNOWN_ADDITIONAL_FILE_TYPE',
      ],
      [
        { uuid: null, name: 'x', usersId: [people.reader.login], additionalFiles: { publish: ['photos'] } },
        'UNKNOWN_OPERATION',
      ],
      [{ uuid: null, name: 'x', usersId: [people.reader.login], additionalFiles: {} }, 'NOTHING_GRANTED'],
      [{ uuid: null, name: 'x', usersId: ['nobody-at-all'], additionalFiles: { depot: ['photos'] } }, 'UNKNOWN_USERS'],
    ];
    for (const [body, code] of refusals) {
      const answer = await admin.post(`${APP}/additionalFiles/authorization`, { json: body });
      expect([answer.status, answer.body.code], answer.text).toEqual([400, code]);
    }
  });

  it('take effect at once, and their revocation too', async () => {
    const account = await activeAccount(server, newIdentity('newcomer'));
    const newcomer = await signedIn(server, account);
    const id = await grantFiles('temporary photos', account.login, { depot: ['photos'] });
    const rights = await newcomer.get(`${APP}/additionalFiles/authorization/null`);
    expect(rights.body.additionalFiles).toMatchObject({ depot: ['photos'] });
    const photo = await newcomer.post(`${APP}/additionalFiles/photos`, {
      body: fileForm(
        { fileName: 'newcomer.jpg', comment: 'c', fields: { caption: 'Mont Joly' } },
        { name: 's.jpg', bytes: PDF },
      ),
    });
    expect(photo.status, photo.text).toBe(201);
    expect(
      (await people.photoAdmin.client.get(`${APP}/additionalFiles/authorization/${account.login}`)).body.additionalFiles
        .depot,
    ).toEqual(['photos']);
    expect((await people.reader.client.get(`${APP}/additionalFiles/authorization/${account.login}`)).status).toBe(403);

    const revoked = await admin.delete(`${APP}/additionalFiles/authorization/${id}`);
    expect([revoked.status, revoked.body]).toEqual([200, { authorizationId: id }]);
    const after = await newcomer.post(`${APP}/additionalFiles/photos`, {
      body: fileForm(
        { fileName: 'newcomer 2.jpg', comment: 'c', fields: { caption: 'Mont Joly' } },
        { name: 's.jpg', bytes: PDF },
      ),
    });
    // Without the authorization they are no longer a user of the application: refused.
    expect(after.status).toBe(403);
    expect((await admin.delete(`${APP}/additionalFiles/authorization/${id}`)).status).toBe(404);
  });
});

/** A new account, signed in, and how it accepts the charter of the application. */
async function newcomer() {
  const account = await activeAccount(server, newIdentity('newcomer'));
  const client = await signedIn(server, account);
  const application = (await admin.get(APP)).body;
  const accept = () =>
    client.put('/users', { json: { login: account.login, email: account.email, charte: application.id } });
  return { client, accept };
}

describe('the charter beside additional files', () => {
  it('keep the charter out of lists, zips and deletions, and answer it when the original asks for __charte__', async () => {
    // Before there is a charter, there is nothing to accept.
    const early = await newcomer();
    const refused = await early.accept();
    expect([refused.status, refused.body.code]).toEqual([404, 'NO_CHARTER']);
    const charter = fileForm(undefined, { name: 'charter.pdf', bytes: PDF });
    const uploaded = await admin.post(`${APP}/additionalFiles/__charte__`, { body: charter });
    expect(uploaded.status, uploaded.text).toBe(200);
    const charterId = uploaded.body as string;
    const overview = await admin.get(`${APP}/additionalFiles`);
    expect(overview.body.fileNames).not.toContain('__charter__');
    expect((await admin.delete(`${APP}/additionalFiles${selection({ uuids: [charterId] })}`)).status).toBe(404);
    expect((await raw(admin, `${APP}/additionalFiles${selection({ uuids: [charterId] })}`)).status).toBe(404);
    const pdf = await raw(admin, `${APP}/additionalFiles${selection({ filetype: '__charte__' })}`);
    expect([pdf.status, pdf.headers.get('content-type')]).toEqual([200, 'application/pdf']);
    // The reader has not accepted the new charter: every file call refuses them until they do.
    const gated = await people.reader.client.get(`${APP}/additionalFiles/protocols`);
    expect([gated.status, gated.body.code]).toEqual([403, 'CHARTER_NOT_SIGNED']);
    const application = (await admin.get(APP)).body;
    const me = (await people.reader.client.get('/me')).body;
    const signed = await people.reader.client.put('/users', {
      json: { login: me.login, email: me.email, charte: application.id },
    });
    expect(signed.status, signed.text).toBe(200);
    expect((await people.reader.client.get(`${APP}/additionalFiles/protocols`)).status).toBe(200);
    // Anyone signed in may accept it: that alone opens no file.
    const late = await newcomer();
    expect((await late.accept()).status).toBe(200);
    for (const path of [`${APP}/additionalFiles`, `${APP}/additionalFiles/protocols`]) {
      const files = await late.client.get(path);
      expect([files.status, files.body.code], path).toEqual([403, 'NO_RIGHT_FOR_ADDITIONAL_FILES']);
    }
  });
});
