import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENEROUS_RATE_LIMITS } from './accountFixtures.ts';
import { api, expectNoLeakInRecordedAnswers, type ApiClient } from './apiClient.ts';
import {
  bytesOf,
  createApplication,
  creatorUser,
  errorEvents,
  expireSessionsOf,
  fetchBytes,
  fieldnotesVersion,
  fieldnotesZip,
  fixture,
  grantApplicationRole,
  insertApplications,
  outline,
  plainUser,
  refusal,
  resultEvents,
  sessionOf,
  startServerWithStoredRows,
  storedApplicationNames,
  streamEvents,
  text,
  updateApplication,
  uploadForm,
  type RowCountingServer,
  type SignedInUser,
} from './applicationFixtures.ts';

/**
 * Applications over HTTP: the validation stream, creation and update (streamed), the streamed list, one
 * application, the configuration download, and the refusals that come before any stream starts.
 */

const ADMIN = { login: 'root', password: 'root-password', email: 'root@terrain.test' };
const NDJSON = 'application/x-ndjson';

let server: RowCountingServer;
let admin: ApiClient;
let adminToken: string;
beforeAll(async () => {
  server = await startServerWithStoredRows({ admin: ADMIN, ...GENEROUS_RATE_LIMITS });
  const session = await sessionOf(server, { ...ADMIN, id: '' });
  admin = session.client;
  adminToken = session.token;
});
afterAll(async () => {
  try {
    expectNoLeakInRecordedAnswers();
  } finally {
    await server?.close();
  }
});

const v1 = () => ({ name: 'fieldnotes-v1.yaml', bytes: fixture('fieldnotes-v1.yaml') });
const post = (client: ApiClient, path: string, fileName: string, bytes: Uint8Array, fields?: Record<string, string>) =>
  client.post(path, { body: uploadForm(fileName, bytes, fields) });
const home = async (name: string) => {
  const answer = await admin.get(`/applications/${name}`);
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
};

describe('validating a configuration (POST /validate-configuration, streamed)', () => {
  it('streams parsing info and progress, then the parsed model as result, and ends on progress 1', async () => {
    const answer = await post(admin, '/validate-configuration', 'fieldnotes-v1.yaml', fixture('fieldnotes-v1.yaml'));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain(NDJSON);
    const events = streamEvents(answer.text);
    expect(events.map(outline)).toEqual([
      ['info', 'application.createConfiguration.parsingConfiguration.forSingle'],
      ['progress', 0.1],
      ['progress', 0.6],
      ['info', 'application.createConfiguration.parsingConfiguration.endparsing'],
      ['result'],
      ['progress', 1],
    ]);
    expect(resultEvents(events)[0]).toMatchObject({ name: 'fieldnotes', version: '1.0.0', defaultLanguage: 'fr' });
    for (const event of events) expect(new Date(event.time).toISOString()).toBe(event.time);
  });

  it('announces a zip as a multi-file configuration', async () => {
    const events = streamEvents((await post(admin, '/validate-configuration', 'fieldnotes.zip', fieldnotesZip())).text);
    expect(events[0]).toMatchObject({
      type: 'info',
      result: 'application.createConfiguration.parsingConfiguration.forMulti',
    });
    expect(resultEvents(events)[0]).toMatchObject({ name: 'fieldnotes' });
  });

  it('reports each problem of broken.yaml as one error event with its code, path and line, then a null result', async () => {
    const events = streamEvents(
      (await post(admin, '/validate-configuration', 'broken.yaml', fixture('broken.yaml'))).text,
    );
    expect(errorEvents(events).map((e) => [e.errorType, e.result.code, e.result.path, e.result.line])).toEqual([
      ['ValidationError', 'UNEXPECTED_SECTIONS', '', 20],
      ['ValidationError', 'UNSUPPORTED_NAME_APPLICATION', 'OA_application', 4],
      ['ValidationError', 'BAD_VERSION_PATTERN', 'OA_application', 5],
      ['ValidationError', 'UNKNOWN_CHECKER_NAME', 'OA_data > plots > OA_basicComponents > code', 11],
      [
        'ValidationError',
        'BAD_GROOVY_EXPRESSION',
        'OA_data > plots > OA_basicComponents > area > OA_checker > OA_params > OA_groovy > OA_expression',
        19,
      ],
      ['ValidationError', 'INVALID_NATURAL_KEY', 'OA_data > plots', 8],
    ]);
    expect(events.slice(-2).map(outline)).toEqual([['result'], ['progress', 1]]);
    expect(resultEvents(events)).toEqual([null]);
  });

  it('gives each error its message key and the params its translation interpolates', async () => {
    const events = streamEvents(
      (await post(admin, '/validate-configuration', 'broken.yaml', fixture('broken.yaml'))).text,
    );
    const version = errorEvents(events).find((e) => e.result.code === 'BAD_VERSION_PATTERN')!;
    expect(version.result).toMatchObject({
      message: 'badVersionPattern',
      params: { givenVersion: 'deux', path: 'OA_application' },
      column: 15,
    });
  });

  it('answers the same stream under /applications/validate-configuration', async () => {
    const direct = streamEvents(
      (await post(admin, '/validate-configuration', 'broken.yaml', fixture('broken.yaml'))).text,
    );
    const alias = await post(admin, '/applications/validate-configuration', 'broken.yaml', fixture('broken.yaml'));
    expect(alias.status).toBe(200);
    expect(alias.headers.get('content-type')).toContain(NDJSON);
    expect(streamEvents(alias.text).map(outline)).toEqual(direct.map(outline));
  });

  it('lets any signed-in user validate, and stores nothing', async () => {
    const before = await storedApplicationNames(server);
    const { client } = await plainUser(server);
    const events = streamEvents(
      (await post(client, '/validate-configuration', 'fieldnotes-v1.yaml', fixture('fieldnotes-v1.yaml'))).text,
    );
    expect(resultEvents(events)[0]).toMatchObject({ name: 'fieldnotes' });
    expect(await storedApplicationNames(server)).toEqual(before);
  });

  it('refuses a file that is neither .yaml nor .zip with 415 before streaming', async () => {
    const answer = await post(admin, '/validate-configuration', 'fieldnotes.txt', fixture('fieldnotes-v1.yaml'));
    expect(answer.status).toBe(415);
    expect(answer.body).toEqual(refusal('BAD_CONFIGURATION_FILE_TYPE', { fileName: 'fieldnotes.txt' }));
  });

  it('refuses an unreadable zip with error events, not a crash', async () => {
    const events = streamEvents(
      (await post(admin, '/validate-configuration', 'garbage.zip', bytesOf('not a zip at all'))).text,
    );
    expect(errorEvents(events).length).toBeGreaterThan(0);
    expect(events.slice(-2).map(outline)).toEqual([['result'], ['progress', 1]]);
  });
});

describe('creating an application (POST /applications/{name}, streamed)', () => {
  it('streams parsing, registration and the new application as result, ending on progress 1', async () => {
    const answer = await post(admin, '/applications/stream_shape', 'fieldnotes-v1.yaml', fixture('fieldnotes-v1.yaml'));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain(NDJSON);
    const events = streamEvents(answer.text);
    expect(events.map(outline)).toEqual([
      ['info', 'application.createConfiguration.parsingConfiguration.forSingle'],
      ['progress', 0.1],
      ['progress', 0.6],
      ['info', 'application.createConfiguration.parsingConfiguration.endparsing'],
      ['info', 'application.configuration.create.register.start'],
      ['progress', 0.9],
      ['result'],
      ['progress', 1],
    ]);
    expect(events[0]).toMatchObject({ params: { applicationName: 'stream_shape' } });
    expect(resultEvents(events)[0]).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'stream_shape',
      version: '1.0.0',
    });
  });

  it('stores the application under the name of the path, not the OA_name of the file', async () => {
    const { id } = await createApplication(admin, 'path_name', v1());
    const stored = await home('path_name');
    expect(stored).toMatchObject({
      id,
      name: 'path_name',
      version: '1.0.0',
      title: { fr: 'Carnet de terrain', en: 'Field notebook' },
    });
    expect((await admin.get('/applications/fieldnotes')).status).toBe(404);
  });

  it('keeps the comment of the form', async () => {
    await createApplication(admin, 'with_comment', v1(), { comment: 'première version' });
    expect((await home('with_comment')).comment).toBe('première version');
  });

  it('takes the comment from the query string too', async () => {
    const answer = await post(
      admin,
      `/applications/query_comment?comment=${encodeURIComponent('from the query')}`,
      'fieldnotes-v1.yaml',
      fixture('fieldnotes-v1.yaml'),
    );
    expect(resultEvents(streamEvents(answer.text))).toHaveLength(1);
    expect((await home('query_comment')).comment).toBe('from the query');
  });

  it('reads a comment sent after the file in the form', async () => {
    const form = uploadForm('fieldnotes-v1.yaml', fixture('fieldnotes-v1.yaml'));
    form.append('comment', 'after the file');
    expect((await admin.post('/applications/late_comment', { body: form })).status).toBe(200);
    expect((await home('late_comment')).comment).toBe('after the file');
  });

  it('falls back to the comment of the configuration when the form has none', async () => {
    await createApplication(admin, 'no_comment', v1());
    expect((await home('no_comment')).comment).toBe("Relevés d'oiseaux sur quelques sites");
  });

  it('makes the creator manager of the new application', async () => {
    const creator = await creatorUser(server, admin, ['mgr_.*']);
    const { id } = await createApplication(creator.client, 'mgr_created', v1());
    const me = await creator.client.get('/me');
    expect(me.body.currentUserRoles.applicationRoles[id]).toEqual(['applicationManager']);
  });

  describe('name rules (checked before the upload is read)', () => {
    it.each([
      ['a', 'one character'],
      ['a'.repeat(41), '41 characters'],
      ['a'.repeat(47), '47 characters'],
    ])('refuses %s (%s) with 400 BAD_APPLICATION_NAME invalidLengthName', async (name) => {
      const answer = await post(admin, `/applications/${name}`, 'fieldnotes-v1.yaml', fixture('fieldnotes-v1.yaml'));
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual(refusal('BAD_APPLICATION_NAME', { name, problem: 'invalidLengthName' }));
    });

    it.each(['FieldNotes', '1fieldnotes', 'field-notes', '_fieldnotes', 'field%20notes'])(
      'refuses %s with 400 BAD_APPLICATION_NAME invalidName',
      async (name) => {
        const answer = await post(admin, `/applications/${name}`, 'fieldnotes-v1.yaml', fixture('fieldnotes-v1.yaml'));
        expect(answer.status).toBe(400);
        expect(answer.body).toEqual(refusal('BAD_APPLICATION_NAME', { problem: 'invalidName' }));
      },
    );

    it('accepts a name of exactly 40 characters', async () => {
      const name = `l${'x'.repeat(39)}`;
      await createApplication(admin, name, v1());
      expect((await home(name)).name).toBe(name);
    });

    it('refuses a user without any creator pattern with 403 NO_RIGHT_FOR_APPLICATION_CREATION', async () => {
      const { client } = await plainUser(server);
      const answer = await post(client, '/applications/plain_try', 'fieldnotes-v1.yaml', fixture('fieldnotes-v1.yaml'));
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual(refusal('NO_RIGHT_FOR_APPLICATION_CREATION', { name: 'plain_try' }));
      expect(await storedApplicationNames(server)).not.toContain('plain_try');
    });

    it('refuses a creator whose patterns do not match the name with 403', async () => {
      const creator = await creatorUser(server, admin, ['fn_.*']);
      const answer = await post(
        creator.client,
        '/applications/other_app',
        'fieldnotes-v1.yaml',
        fixture('fieldnotes-v1.yaml'),
      );
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual(refusal('NO_RIGHT_FOR_APPLICATION_CREATION'));
    });

    it('matches a pattern against the whole name, not a part of it', async () => {
      const creator = await creatorUser(server, admin, ['fn_.*']);
      const answer = await post(
        creator.client,
        '/applications/xfn_test',
        'fieldnotes-v1.yaml',
        fixture('fieldnotes-v1.yaml'),
      );
      expect(answer.status).toBe(403);
    });

    it('lets a creator whose pattern fn_.* matches create fn_test', async () => {
      const creator = await creatorUser(server, admin, ['fn_.*']);
      await createApplication(creator.client, 'fn_test', v1());
      expect(await storedApplicationNames(server)).toContain('fn_test');
    });

    it('lets a creator whose pattern is an exact name create that name', async () => {
      const creator = await creatorUser(server, admin, ['exact_name']);
      await createApplication(creator.client, 'exact_name', v1());
      expect((await home('exact_name')).name).toBe('exact_name');
    });

    it('refuses a taken name with 409 APPLICATION_EXISTS_ON_CREATION and leaves the first application as it was', async () => {
      await createApplication(admin, 'taken_name', v1(), { comment: 'first' });
      const answer = await post(
        admin,
        '/applications/taken_name',
        'fieldnotes-v2.yaml',
        fixture('fieldnotes-v2.yaml'),
        { comment: 'second' },
      );
      expect(answer.status).toBe(409);
      expect(answer.body).toEqual(refusal('APPLICATION_EXISTS_ON_CREATION', { name: 'taken_name' }));
      expect(await home('taken_name')).toMatchObject({ version: '1.0.0', comment: 'first' });
    });
  });

  describe('refused uploads create nothing', () => {
    it('streams one error event per configuration problem, no result, and stores nothing', async () => {
      const before = await storedApplicationNames(server);
      const answer = await post(admin, '/applications/broken_app', 'broken.yaml', fixture('broken.yaml'));
      expect(answer.status).toBe(200);
      const events = streamEvents(answer.text);
      expect(errorEvents(events).map((e) => e.result.code)).toEqual([
        'UNEXPECTED_SECTIONS',
        'UNSUPPORTED_NAME_APPLICATION',
        'BAD_VERSION_PATTERN',
        'UNKNOWN_CHECKER_NAME',
        'BAD_GROOVY_EXPRESSION',
        'INVALID_NATURAL_KEY',
      ]);
      expect(resultEvents(events)).toEqual([]);
      expect(await storedApplicationNames(server)).toEqual(before);
      expect((await admin.get('/applications/broken_app')).status).toBe(404);
    });

    it('refuses a file that is neither .yaml nor .zip with 415 BAD_CONFIGURATION_FILE_TYPE', async () => {
      const answer = await post(admin, '/applications/wrong_type', 'fieldnotes.json', fixture('fieldnotes-v1.yaml'));
      expect(answer.status).toBe(415);
      expect(answer.body).toEqual(refusal('BAD_CONFIGURATION_FILE_TYPE', { fileName: 'fieldnotes.json' }));
      expect(await storedApplicationNames(server)).not.toContain('wrong_type');
    });

    it('refuses an empty file with 400 EMPTY_FILE', async () => {
      const answer = await post(admin, '/applications/empty_file', 'empty.yaml', new Uint8Array());
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual(refusal('EMPTY_FILE'));
      expect(await storedApplicationNames(server)).not.toContain('empty_file');
    });

    it('refuses a form without file with 400 MISSING_FILE', async () => {
      const form = new FormData();
      form.append('comment', 'no file here');
      const answer = await admin.post('/applications/missing_file', { body: form });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual(refusal('MISSING_FILE'));
      expect(await storedApplicationNames(server)).not.toContain('missing_file');
    });

    it('refuses a body that is not a multipart form', async () => {
      const answer = await admin.post('/applications/not_multipart', { json: { file: 'OA_version: 2.0.1' } });
      expect(answer.status).toBe(415);
      expect(answer.body).toEqual(refusal('MULTIPART_REQUIRED'));
    });

    it('refuses a file over 20 MB with 413 FILE_TOO_LARGE', async () => {
      const big = new Uint8Array(20 * 1024 * 1024 + 1).fill(0x23); // '#': one long YAML comment
      const answer = await post(admin, '/applications/too_large', 'big.yaml', big);
      expect(answer.status).toBe(413);
      expect(answer.body).toEqual(refusal('FILE_TOO_LARGE', { maxBytes: 20 * 1024 * 1024 }));
      expect(await storedApplicationNames(server)).not.toContain('too_large');
    });

    it('refuses a comment over 200 characters with 400 COMMENT_TOO_LONG', async () => {
      const answer = await post(
        admin,
        '/applications/long_comment',
        'fieldnotes-v1.yaml',
        fixture('fieldnotes-v1.yaml'),
        { comment: 'x'.repeat(201) },
      );
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual(refusal('COMMENT_TOO_LONG', { max: 200 }));
      expect(await storedApplicationNames(server)).not.toContain('long_comment');
    });

    it('streams an error for a zip whose entries climb out of it (../), and stores nothing', async () => {
      const zip = zipSync({
        'configuration.yaml': fixture('fieldnotes-v1.yaml'),
        '../OA_data/evil.yaml': strToU8('OA_naturalKey: [x]'),
      });
      const events = streamEvents((await post(admin, '/applications/traversal', 'evil.zip', zip)).text);
      expect(errorEvents(events).map((e) => e.result.code)).toEqual(['INVALID_CONFIGURATION_FILE']);
      expect(resultEvents(events)).toEqual([]);
      expect(await storedApplicationNames(server)).not.toContain('traversal');
    });

    it('keeps exactly one application when two creations of one name race', async () => {
      const answers = await Promise.all(
        [1, 2].map(() => post(admin, '/applications/racing', 'fieldnotes-v1.yaml', fixture('fieldnotes-v1.yaml'))),
      );
      const created = answers.filter((a) => a.status === 200 && resultEvents(streamEvents(a.text)).length === 1);
      const refused = answers.filter((a) => !created.includes(a));
      expect(created).toHaveLength(1);
      const refusalCode =
        refused[0].status === 409 ? refused[0].body.code : errorEvents(streamEvents(refused[0].text))[0].result.code;
      expect(refusalCode).toBe('APPLICATION_EXISTS_ON_CREATION');
      expect((await storedApplicationNames(server)).filter((n) => n === 'racing')).toHaveLength(1);
      expect((await home('racing')).versions).toHaveLength(1);
    });

    it('accepts a comment of exactly 200 characters', async () => {
      await createApplication(admin, 'comment_200', v1(), { comment: 'x'.repeat(200) });
      expect((await home('comment_200')).comment).toHaveLength(200);
    });
  });

  describe('from a zip of configuration.yaml and OA_data/*.yaml', () => {
    it('creates the application with every data entry of the files', async () => {
      await createApplication(admin, 'zipped', { name: 'fieldnotes.zip', bytes: fieldnotesZip() });
      expect(await home('zipped')).toMatchObject({ name: 'zipped', version: '1.0.0' });
      const parts = (await admin.get('/applications/zipped?filter=REFERENCETYPE&filter=DATATYPE')).body;
      expect([parts.references, parts.dataTypes]).toEqual([['sites', 'species'], ['counts']]);
    });

    it('gives the zip back byte for byte, as application/zip under its file name', async () => {
      const zip = fieldnotesZip();
      await createApplication(admin, 'zipped_download', { name: 'fieldnotes.zip', bytes: zip });
      const download = await fetchBytes(server, adminToken, '/applications/zipped_download/configuration');
      expect(download.status).toBe(200);
      expect(download.headers.get('content-type')).toBe('application/zip');
      expect(download.headers.get('content-disposition')).toContain('filename="fieldnotes.zip"');
      expect(Buffer.from(download.bytes).equals(Buffer.from(zip))).toBe(true);
    });
  });
});

describe('updating an application (POST /applications/{name}/configuration, streamed)', () => {
  it('streams the rights check, parsing, migration and the updated application as result', async () => {
    const { id } = await createApplication(admin, 'update_stream', v1());
    const events = await updateApplication(admin, 'update_stream', 'fieldnotes-v2.yaml', fixture('fieldnotes-v2.yaml'));
    expect(events.map(outline)).toEqual([
      ['info', 'application.ChangeConfiguration.configuration.rights.checking'],
      ['info', 'application.ChangeConfiguration.configuration.parsingConfiguration.forSingle'],
      ['progress', 0.1],
      ['progress', 0.6],
      ['info', 'application.ChangeConfiguration.configuration.parsingConfiguration.endparsing'],
      ['info', 'application.ChangeConfiguration.configuration.migrate'],
      ['progress', 0.9],
      ['result'],
      ['progress', 1],
    ]);
    expect(resultEvents(events)[0]).toMatchObject({ id, name: 'update_stream', version: '1.1.0' });
    expect(resultEvents(events)[0].impact.entries.map((e: { dataName: string }) => e.dataName)).toEqual([
      'sites',
      'species',
      'counts',
    ]);
  });

  it('keeps every version, newest first; the update date moves and the creation date stays', async () => {
    await createApplication(admin, 'versions', v1(), { comment: 'v1' });
    const created = await home('versions');
    expect(created.updateDate).toBe(created.creationDate);
    await updateApplication(admin, 'versions', 'fieldnotes-v2.yaml', fixture('fieldnotes-v2.yaml'), { comment: 'v2' });
    const updated = await home('versions');
    expect(updated).toMatchObject({
      id: created.id,
      version: '1.1.0',
      comment: 'v2',
      creationDate: created.creationDate,
    });
    expect(Date.parse(updated.updateDate)).toBeGreaterThan(Date.parse(created.updateDate));
    expect(updated.versions.map((v: { version: string; comment: string }) => [v.version, v.comment])).toEqual([
      ['1.1.0', 'v2'],
      ['1.0.0', 'v1'],
    ]);
  });

  it('shows the new parts of the configuration (the component v2 adds), though v1 was read just before', async () => {
    await createApplication(admin, 'new_parts', v1());
    const before = (await admin.get('/applications/new_parts?filter=CONFIGURATION')).body.configuration;
    expect(
      before.data.find((d: { name: string }) => d.name === 'counts').components.map((c: { key: string }) => c.key),
    ).not.toContain('observer');
    await updateApplication(admin, 'new_parts', 'fieldnotes-v2.yaml', fixture('fieldnotes-v2.yaml'));
    const model = (await admin.get('/applications/new_parts?filter=CONFIGURATION')).body.configuration;
    const counts = model.data.find((d: { name: string }) => d.name === 'counts');
    expect(counts.components.map((c: { key: string }) => c.key)).toContain('observer');
  });

  it('refuses the current version again with an APPLICATION_VERSION_EXISTS error event and changes nothing', async () => {
    await createApplication(admin, 'same_version', v1(), { comment: 'kept' });
    const before = await home('same_version');
    const events = await updateApplication(admin, 'same_version', 'fieldnotes-v1.yaml', fixture('fieldnotes-v1.yaml'), {
      comment: 'ignored',
    });
    expect(errorEvents(events).map((e) => e.result)).toEqual([
      expect.objectContaining({
        code: 'APPLICATION_VERSION_EXISTS',
        params: { name: 'same_version', version: '1.0.0' },
      }),
    ]);
    expect(resultEvents(events)).toEqual([]);
    expect(await home('same_version')).toEqual(before);
  });

  it('refuses an earlier version that is already stored, and changes nothing', async () => {
    await createApplication(admin, 'back_version', v1());
    await updateApplication(admin, 'back_version', 'fieldnotes-v2.yaml', fixture('fieldnotes-v2.yaml'));
    const before = await home('back_version');
    const events = await updateApplication(admin, 'back_version', 'fieldnotes-v1.yaml', fixture('fieldnotes-v1.yaml'));
    expect(errorEvents(events).map((e) => e.result.code)).toEqual(['APPLICATION_VERSION_EXISTS']);
    expect(resultEvents(events)).toEqual([]);
    expect(await home('back_version')).toEqual(before);
  });

  it('streams the problems of an invalid configuration and changes nothing', async () => {
    await createApplication(admin, 'invalid_update', v1());
    const before = await home('invalid_update');
    const events = await updateApplication(admin, 'invalid_update', 'broken.yaml', fixture('broken.yaml'));
    expect(errorEvents(events)).toHaveLength(6);
    expect(resultEvents(events)).toEqual([]);
    expect(await home('invalid_update')).toEqual(before);
  });

  it('lets a manager who holds no creator pattern update', async () => {
    await createApplication(admin, 'managed_app', v1());
    const manager = await plainUser(server, 'manager');
    await grantApplicationRole(admin, 'applicationManager', manager.login, 'managed_app');
    const events = await updateApplication(
      manager.client,
      'managed_app',
      'fieldnotes-v2.yaml',
      fixture('fieldnotes-v2.yaml'),
    );
    expect(resultEvents(events)).toEqual([expect.objectContaining({ version: '1.1.0' })]);
  });

  it('lets a creator whose pattern matches update an application someone else created', async () => {
    await createApplication(admin, 'up_shared', v1());
    const creator = await creatorUser(server, admin, ['up_.*']);
    const events = await updateApplication(
      creator.client,
      'up_shared',
      'fieldnotes-v2.yaml',
      fixture('fieldnotes-v2.yaml'),
    );
    expect(resultEvents(events)).toEqual([expect.objectContaining({ version: '1.1.0' })]);
  });

  it('addresses the application by id as well as by name', async () => {
    const { id } = await createApplication(admin, 'update_by_id', v1());
    const events = await updateApplication(admin, id, 'fieldnotes-v2.yaml', fixture('fieldnotes-v2.yaml'));
    expect(resultEvents(events)).toMatchObject([{ id, name: 'update_by_id', version: '1.1.0' }]);
  });

  it('refuses a user who is neither manager, matching creator nor admin with 403 NO_RIGHT_FOR_APPLICATION_MANAGEMENT', async () => {
    await createApplication(admin, 'not_yours', v1());
    for (const user of [await plainUser(server), await creatorUser(server, admin, ['other_.*'])]) {
      const answer = await post(
        user.client,
        '/applications/not_yours/configuration',
        'fieldnotes-v2.yaml',
        fixture('fieldnotes-v2.yaml'),
      );
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual(refusal('NO_RIGHT_FOR_APPLICATION_MANAGEMENT', { name: 'not_yours' }));
    }
    expect((await home('not_yours')).version).toBe('1.0.0');
  });

  it('does not count the userManager role as managing the configuration', async () => {
    await createApplication(admin, 'user_managed', v1());
    const userManager = await plainUser(server, 'usermgr');
    await grantApplicationRole(admin, 'userManager', userManager.login, 'user_managed');
    const answer = await post(
      userManager.client,
      '/applications/user_managed/configuration',
      'fieldnotes-v2.yaml',
      fixture('fieldnotes-v2.yaml'),
    );
    expect(answer.status).toBe(403);
  });

  it('answers 404 NO_SUCH_APPLICATION for an unknown application', async () => {
    const answer = await post(
      admin,
      '/applications/never_created/configuration',
      'fieldnotes-v2.yaml',
      fixture('fieldnotes-v2.yaml'),
    );
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual(refusal('NO_SUCH_APPLICATION', { name: 'never_created' }));
  });

  it('refuses the same upload errors as creation before streaming', async () => {
    await createApplication(admin, 'upload_errors', v1());
    const path = '/applications/upload_errors/configuration';
    expect((await post(admin, path, 'v2.txt', fixture('fieldnotes-v2.yaml'))).body).toEqual(
      refusal('BAD_CONFIGURATION_FILE_TYPE'),
    );
    expect((await post(admin, path, 'v2.yaml', new Uint8Array())).body).toEqual(refusal('EMPTY_FILE'));
    expect(
      (await post(admin, path, 'v2.yaml', fixture('fieldnotes-v2.yaml'), { comment: 'y'.repeat(201) })).body,
    ).toEqual(refusal('COMMENT_TOO_LONG'));
    expect((await home('upload_errors')).version).toBe('1.0.0');
  });

  describe('when the application holds rows', () => {
    /** fieldnotes 2.0.0: `individuals` gone from counts, and counts keyed by site and day only. */
    const orphaning = () =>
      bytesOf(
        text(fieldnotesVersion('2.0.0'))
          .replace('      individuals:\n        OA_checker: {OA_name: OA_integer}\n', '')
          .replace('OA_naturalKey: [site, species, day]', 'OA_naturalKey: [site, day]'),
      );

    it('refuses an update that would orphan rows, with one error naming each thing that would break', async () => {
      const { id } = await createApplication(admin, 'with_rows', v1());
      server.storedRows.set(id, { counts: 12, sites: 3 });
      const events = await updateApplication(admin, 'with_rows', 'orphaning.yaml', orphaning());
      expect(
        errorEvents(events).map((e) => [e.errorType, e.result.code, e.result.params.dataName, e.result.path]),
      ).toEqual([
        ['IncompatibleConfiguration', 'CHANGED_NATURAL_KEY_WITH_ROWS', 'counts', 'OA_data > counts'],
        ['IncompatibleConfiguration', 'UPDATE_LOSES_DATA', undefined, undefined],
      ]);
      expect(errorEvents(events)[1].result.params).toEqual({
        entries: [],
        rows: 0,
        components: ['counts.individuals'],
        values: 12,
      });
      expect(resultEvents(events)).toEqual([]);
    });

    it('leaves the refused application unchanged: version, dates, versions and the file downloaded', async () => {
      const { id } = await createApplication(admin, 'rows_unchanged', v1(), { comment: 'with data' });
      server.storedRows.set(id, { counts: 12 });
      const before = await home('rows_unchanged');
      await updateApplication(admin, 'rows_unchanged', 'orphaning.yaml', orphaning(), { comment: 'would break' });
      expect(await home('rows_unchanged')).toEqual(before);
      const download = await fetchBytes(server, adminToken, '/applications/rows_unchanged/configuration');
      expect(text(download.bytes)).toBe(text(fixture('fieldnotes-v1.yaml')));
    });

    it('applies the same changes when the entries they touch hold no rows', async () => {
      const { id } = await createApplication(admin, 'rows_elsewhere', v1());
      server.storedRows.set(id, { sites: 3 });
      const events = await updateApplication(admin, 'rows_elsewhere', 'orphaning.yaml', orphaning());
      expect(errorEvents(events)).toEqual([]);
      expect((await home('rows_elsewhere')).version).toBe('2.0.0');
    });

    it('applies a compatible update (a new component) while rows are stored', async () => {
      const { id } = await createApplication(admin, 'rows_compatible', v1());
      server.storedRows.set(id, { counts: 12, sites: 3, species: 4 });
      const events = await updateApplication(
        admin,
        'rows_compatible',
        'fieldnotes-v2.yaml',
        fixture('fieldnotes-v2.yaml'),
      );
      expect(errorEvents(events)).toEqual([]);
      expect((await home('rows_compatible')).version).toBe('1.1.0');
    });
  });
});

describe('listing applications (GET /applications, streamed)', () => {
  let creator: SignedInUser;
  let stranger: SignedInUser;
  beforeAll(async () => {
    creator = await creatorUser(server, admin, ['list_.*'], 'lister');
    stranger = await plainUser(server, 'stranger');
    await createApplication(creator.client, 'list_mine', v1());
    await createApplication(admin, 'list_theirs', v1());
    // Enough applications for the list to be read in several pages.
    await insertApplications(
      server,
      Array.from({ length: 250 }, (_, i) => `bulk_${String(i).padStart(3, '0')}`),
    );
  });

  const list = async (client: ApiClient, query = '') => {
    const answer = await client.get(`/applications${query}`);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.headers.get('content-type')).toContain(NDJSON);
    return streamEvents(answer.text);
  };
  const listed = async (client: ApiClient, name: string, query = '') =>
    resultEvents(await list(client, query)).find((a) => a.name === name);

  it('streams an info with the count, then per application one result in name order followed by progress (i+1)/n', async () => {
    const names = await storedApplicationNames(server);
    expect(names.length).toBeGreaterThan(250); // the server reads more than one page
    const events = await list(admin);
    expect(events[0]).toMatchObject({
      type: 'info',
      result: 'application.list',
      params: { count: String(names.length) },
    });
    const expected = names.flatMap((name, i) => [
      ['result', name],
      ['progress', Math.round(((i + 1) / names.length) * 1000) / 1000],
    ]);
    expect(events.slice(1).map((e) => (e.type === 'result' ? ['result', e.result.name] : outline(e)))).toEqual(
      expected,
    );
  });

  it('lists every application to every signed-in user, whatever their rights', async () => {
    const names = resultEvents(await list(stranger.client)).map((a) => a.name);
    expect(names).toEqual(await storedApplicationNames(server));
  });

  it('gives identity, version, dates, titles and roles, and no part unless asked for', async () => {
    const app = await listed(admin, 'list_theirs');
    expect(app).toMatchObject({
      id: expect.any(String),
      name: 'list_theirs',
      version: '1.0.0',
      title: { fr: 'Carnet de terrain', en: 'Field notebook' },
      description: { en: 'Bird counts per site and per day.' },
      defaultLanguage: 'fr',
      hasSignedCharte: false,
    });
    expect(app.creationDate).toBe(app.updateDate);
    for (const part of ['references', 'dataTypes', 'additionalFiles', 'hasRightsRequest', 'configuration', 'versions'])
      expect(app).not.toHaveProperty(part);
  });

  it.each([
    ['REFERENCETYPE', { references: ['sites', 'species'] }],
    ['DATATYPE', { dataTypes: ['counts'] }],
    ['ADDITIONALFILE', { additionalFiles: [] }],
    ['RIGHTSREQUEST', { hasRightsRequest: false }],
  ])('adds only the %s part when filtered on it', async (part, fields) => {
    const app = await listed(admin, 'list_theirs', `?filter=${part}`);
    const parts = ['references', 'dataTypes', 'additionalFiles', 'hasRightsRequest'];
    expect(Object.fromEntries(parts.filter((p) => p in app).map((p) => [p, app[p]]))).toEqual(fields);
  });

  it('adds every part with filter ALL, and several parts with a repeated filter', async () => {
    expect(await listed(admin, 'list_theirs', '?filter=ALL')).toMatchObject({
      references: ['sites', 'species'],
      dataTypes: ['counts'],
      additionalFiles: [],
      hasRightsRequest: false,
    });
    const two = await listed(admin, 'list_theirs', '?filter=REFERENCETYPE&filter=DATATYPE');
    expect([two.references, two.dataTypes, 'additionalFiles' in two]).toEqual([
      ['sites', 'species'],
      ['counts'],
      false,
    ]);
  });

  it('never streams whole models, even with CONFIGURATION', async () => {
    expect(await listed(admin, 'list_theirs', '?filter=CONFIGURATION')).not.toHaveProperty('configuration');
  });

  it('refuses an unknown filter with 400 before streaming', async () => {
    const answer = await admin.get('/applications?filter=EVERYTHING');
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(refusal('BAD_REQUEST'));
  });

  it('marks the creator’s application isMember, and the others not', async () => {
    expect((await listed(creator.client, 'list_mine')).isMember).toBe(true);
    expect((await listed(creator.client, 'list_theirs')).isMember).toBe(false);
    expect((await listed(stranger.client, 'list_mine')).isMember).toBe(false);
  });

  it('marks a member by role: a user made manager sees the application among theirs', async () => {
    const manager = await plainUser(server, 'listmgr');
    await grantApplicationRole(admin, 'applicationManager', manager.login, 'list_theirs');
    const app = await listed(manager.client, 'list_theirs');
    expect(app).toMatchObject({
      isMember: true,
      isAdministrator: true,
      currentApplicationUserRolesResult: { applicationRoles: ['applicationManager'] },
    });
  });

  it('says isAdministrator for the platform admin on every application', async () => {
    const apps = resultEvents(await list(admin));
    expect(apps.every((a) => a.isAdministrator && a.currentApplicationUserRolesResult.isTerrainAdmin)).toBe(true);
  });

  it('says isAdministrator for a creator on the names their pattern covers only', async () => {
    const apps = resultEvents(await list(creator.client));
    expect(apps.filter((a) => a.isAdministrator).map((a) => a.name)).toEqual(
      apps.map((a) => a.name).filter((n) => n.startsWith('list_')),
    );
    expect((await listed(creator.client, 'list_theirs')).currentApplicationUserRolesResult).toMatchObject({
      isApplicationCreator: true,
      applicationRoles: [],
    });
  });

  it('says isAdministrator for nobody to a plain user', async () => {
    const apps = resultEvents(await list(stranger.client));
    expect(apps.some((a) => a.isAdministrator || a.isMember)).toBe(false);
    expect(apps[0].currentApplicationUserRolesResult).toMatchObject({
      userLogin: stranger.login,
      isTerrainAdmin: false,
      isApplicationCreator: false,
    });
  });
});

describe('reading one application (GET /applications/{nameOrId})', () => {
  let id: string;
  beforeAll(async () => {
    ({ id } = await createApplication(admin, 'read_one', v1(), { comment: 'to read' }));
  });

  it('answers the application by name, with its versions', async () => {
    const answer = await admin.get('/applications/read_one');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      id,
      name: 'read_one',
      version: '1.0.0',
      comment: 'to read',
      isMember: true,
      isAdministrator: true,
    });
    expect(answer.body.versions).toEqual([{ version: '1.0.0', uploadedAt: expect.any(String), comment: 'to read' }]);
  });

  it('answers the same application by id', async () => {
    expect(await home(id)).toEqual(await home('read_one'));
  });

  it('includes the whole model with filter CONFIGURATION', async () => {
    const answer = await admin.get('/applications/read_one?filter=CONFIGURATION');
    expect(answer.body.configuration).toMatchObject({ name: 'fieldnotes', version: '1.0.0', data: expect.any(Array) });
    expect((await admin.get('/applications/read_one')).body).not.toHaveProperty('configuration');
  });

  it('answers any signed-in user, as they may see it', async () => {
    const { client } = await plainUser(server);
    const answer = await client.get('/applications/read_one');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ name: 'read_one', isMember: false, isAdministrator: false });
  });

  it.each(['never_created', '00000000-0000-4000-8000-000000000000', 'Not A Name'])(
    'answers 404 NO_SUCH_APPLICATION for %s',
    async (name) => {
      const answer = await admin.get(`/applications/${encodeURIComponent(name)}`);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual(refusal('NO_SUCH_APPLICATION', { name }));
    },
  );
});

describe('downloading the configuration (GET /applications/{nameOrId}/configuration)', () => {
  beforeAll(async () => {
    await createApplication(admin, 'download_me', v1());
    await updateApplication(admin, 'download_me', 'fieldnotes-v2.yaml', fixture('fieldnotes-v2.yaml'));
  });

  it('gives the current version byte for byte, as an attachment named like the uploaded file', async () => {
    const download = await fetchBytes(server, adminToken, '/applications/download_me/configuration');
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/yaml');
    expect(download.headers.get('content-disposition')).toBe(
      `attachment; filename="fieldnotes-v2.yaml"; filename*=UTF-8''fieldnotes-v2.yaml`,
    );
    expect(Buffer.from(download.bytes).equals(Buffer.from(fixture('fieldnotes-v2.yaml')))).toBe(true);
  });

  it('gives an earlier version with ?version=', async () => {
    const download = await fetchBytes(server, adminToken, '/applications/download_me/configuration?version=1.0.0');
    expect(download.headers.get('content-disposition')).toContain('filename="fieldnotes-v1.yaml"');
    expect(Buffer.from(download.bytes).equals(Buffer.from(fixture('fieldnotes-v1.yaml')))).toBe(true);
  });

  it('names a file of any name: ASCII in filename, the real name in filename*', async () => {
    const fileName = 'relevés—2024 日本.yaml';
    await createApplication(admin, 'unicode_file', { name: fileName, bytes: fixture('fieldnotes-v1.yaml') });
    const download = await fetchBytes(server, adminToken, '/applications/unicode_file/configuration');
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toBe(
      `attachment; filename="relev_s_2024 __.yaml"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
    );
    expect(Buffer.from(download.bytes).equals(Buffer.from(fixture('fieldnotes-v1.yaml')))).toBe(true);
  });

  it('answers 404 NO_SUCH_CONFIGURATION_VERSION for a version never stored', async () => {
    const answer = await admin.get('/applications/download_me/configuration?version=9.9.9');
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual(refusal('NO_SUCH_CONFIGURATION_VERSION', { version: '9.9.9' }));
  });

  it('lets a manager download', async () => {
    const manager = await plainUser(server, 'dlmgr');
    await grantApplicationRole(admin, 'applicationManager', manager.login, 'download_me');
    expect((await fetchBytes(server, manager.token, '/applications/download_me/configuration')).status).toBe(200);
  });

  it('refuses a plain user with 403 NO_RIGHT_FOR_APPLICATION_MANAGEMENT', async () => {
    const { client } = await plainUser(server);
    const answer = await client.get('/applications/download_me/configuration');
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual(refusal('NO_RIGHT_FOR_APPLICATION_MANAGEMENT', { name: 'download_me' }));
  });

  it('answers 404 NO_SUCH_APPLICATION for an unknown application', async () => {
    expect((await admin.get('/applications/never_created/configuration')).body).toEqual(refusal('NO_SUCH_APPLICATION'));
  });
});

describe('without a valid session: 401 before any stream starts', () => {
  const calls: Array<[string, (client: ApiClient) => Promise<{ status: number; headers: Headers; body: any }>]> = [
    ['GET /applications', (c) => c.get('/applications')],
    ['GET /applications/{name}', (c) => c.get('/applications/stream_shape')],
    [
      'POST /validate-configuration',
      (c) => post(c, '/validate-configuration', 'fieldnotes-v1.yaml', fixture('fieldnotes-v1.yaml')),
    ],
    [
      'POST /applications/{name}',
      (c) => post(c, '/applications/anonymous_app', 'fieldnotes-v1.yaml', fixture('fieldnotes-v1.yaml')),
    ],
    [
      'POST /applications/{name}/configuration',
      (c) => post(c, '/applications/stream_shape/configuration', 'fieldnotes-v2.yaml', fixture('fieldnotes-v2.yaml')),
    ],
    ['GET /applications/{name}/configuration', (c) => c.get('/applications/stream_shape/configuration')],
  ];

  it.each(calls)('%s answers 401 NOT_AUTHENTICATED as JSON without a session', async (_call, call) => {
    const answer = await call(api(server));
    expect(answer.status).toBe(401);
    expect(answer.headers.get('content-type')).toContain('application/json');
    expect(answer.body).toEqual(refusal('NOT_AUTHENTICATED'));
  });

  it.each(calls)('%s answers 401 once the session has expired', async (_call, call) => {
    const creator = await creatorUser(server, admin, ['.*'], 'expiring');
    await expireSessionsOf(server, creator.id);
    const answer = await call(creator.client);
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(refusal('NOT_AUTHENTICATED'));
  });

  it('creates nothing for a creator whose session expired', async () => {
    const creator = await creatorUser(server, admin, ['late_.*'], 'late');
    await expireSessionsOf(server, creator.id);
    const answer = await post(
      creator.client,
      '/applications/late_app',
      'fieldnotes-v1.yaml',
      fixture('fieldnotes-v1.yaml'),
    );
    expect(answer.status).toBe(401);
    expect(await storedApplicationNames(server)).not.toContain('late_app');
  });
});
