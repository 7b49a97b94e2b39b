import { readFileSync } from 'node:fs';
import path from 'node:path';
import { unzipSync, strFromU8 } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeAccount, GENEROUS_RATE_LIMITS, signedIn } from './accountFixtures.ts';
import { HttpClient } from './httpClient.ts';
import { startTestServer, type TestServer } from './harness.ts';

const fixtures = path.resolve(import.meta.dirname, '../fixtures');
const file = (name: string) => readFileSync(path.join(fixtures, name));

function form(fileName: string, bytes: Uint8Array | string, params?: object) {
  const data = new FormData();
  if (params) data.append('params', JSON.stringify(params));
  data.append('file', new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)]), fileName);
  return data;
}

const header = 'project;site;species;day;individuals\n';
const csv = (lines: string[]) => header + lines.join('\n') + '\n';
const dataset = (project: string, site: string, from: string, to: string) => ({
  binaryfiledataset: { datatype: 'counts', requiredAuthorizations: { project, site }, from, to },
  topublish: true,
});

let server: TestServer;
let admin: HttpClient;

async function publish(name: string, content: string, params: object) {
  const answer = await admin.post('/applications/surveys/data/counts', { body: form(name, content, params) });
  expect(answer.status).toBe(202);
  for (let i = 0; i < 200; i++) {
    const state = (await admin.get(`/applications/surveys/file/${answer.body.fileId}/publication-state`)).body;
    if (state.job?.status === 'done') return answer.body.fileId as string;
    if (state.job?.status === 'failed') throw new Error(JSON.stringify(state.job.error));
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('publication did not end');
}

const keys = (answer: { body: { rows: Array<{ naturalKey: string }> } }) =>
  answer.body.rows.map((r) => r.naturalKey).sort();

beforeAll(async () => {
  server = await startTestServer({
    admin: { login: 'root', password: 'root-password', email: 'root@terrain.test' },
    ...GENEROUS_RATE_LIMITS,
  });
  admin = new HttpClient(server.url + '/api/v1');
  await admin.post('/login', { form: { login: 'root', password: 'root-password' } });
  await admin.post('/applications/surveys', { body: form('surveys.yaml', file('configurations/surveys.yaml')) });
  for (const [reference, name] of [
    ['projects', 'surveys-projects.csv'],
    ['sites', 'surveys-sites.csv'],
    ['species', 'surveys-species.csv'],
  ]) {
    await admin.post(`/applications/surveys/references/${reference}`, { body: form(name, file(`csv/${name}`)) });
  }
  await publish(
    'a.csv',
    csv(['alps;lac_blanc;tichodroma;02/06/2024;3', 'alps;lac_blanc;lagopus;12/06/2024;5']),
    dataset('alps', 'lac_blanc', '2024-06-01', '2024-06-30'),
  );
  await publish(
    'b.csv',
    csv(['alps;lac_blanc;tichodroma;02/07/2024;1']),
    dataset('alps', 'lac_blanc', '2024-07-01', '2024-07-31'),
  );
  await publish(
    'c.csv',
    csv(['pyrenees;mont_joly;lagopus;05/06/2024;7']),
    dataset('pyrenees', 'mont_joly', '2024-06-01', '2024-06-30'),
  );
});
afterAll(() => server?.close());

describe('data rights', () => {
  it('keep a signed-in stranger out of the data', async () => {
    const stranger = await signedIn(server, await activeAccount(server));
    expect((await stranger.get('/applications/surveys/data/counts/json')).status).toBe(403);
    expect((await stranger.get('/applications/surveys/references/sites')).status).toBe(403);
    const list = await stranger.get('/applications/surveys?filter=ALL');
    expect([list.body.canReadDatatype, list.body.canReadReference]).toEqual([false, false]);
  });

  it('let a user read exactly the site and period granted, in every read', async () => {
    const account = await activeAccount(server);
    const granted = await admin.post('/applications/surveys/authorization', {
      json: {
        name: 'alps june',
        description: 'extraction on Lac Blanc in June 2024',
        usersId: [account.login],
        authorizationForAll: { sites: ['extraction'], species: ['extraction'] },
        authorizationsWithRestriction: {
          counts: {
            operationTypes: ['extraction'],
            requiredAuthorizations: { site: ['sitesKlac_blanc'] },
            timeScope: { fromDay: '2024-06-01', toDay: '2024-06-30' },
          },
        },
      },
    });
    expect(granted.status).toBe(201);
    const user = await signedIn(server, account);
    const json = await user.get(
      '/applications/surveys/data/counts/json?downloadDatasetQuery=' +
        encodeURIComponent(JSON.stringify({ limit: 100 })),
    );
    expect(json.status).toBe(200);
    expect(keys(json)).toEqual(['alps__lac_blanc__lagopus__12_06_2024', 'alps__lac_blanc__tichodroma__02_06_2024']);
    expect(json.body.totalRows).toBe(2);
    const exported = (await user.get('/applications/surveys/data/counts/csv')).text.trim().split('\n');
    expect(exported).toHaveLength(3);
    const zip = unzipSync(
      new Uint8Array(
        await (
          await fetch(`${server.url}/api/v1/applications/surveys/data/counts/zip`, {
            headers: { cookie: user.cookieHeader },
          })
        ).arrayBuffer(),
      ),
    );
    // The references the user may not read stay out of the zip.
    expect(Object.keys(zip).sort()).toEqual(['counts.csv', 'references/sites.csv', 'references/species.csv']);
    expect(strFromU8(zip['counts.csv']).trim().split('\n')).toHaveLength(3);
    const synthesis = await user.get('/applications/surveys/synthesis/counts');
    expect(synthesis.body.variables.individuals.reduce((a: number, b: number) => a + b, 0)).toBe(2);
    const versions = (await user.get('/applications/surveys/filesOnRepository/counts')).body as Array<{ name: string }>;
    expect(versions.map((v) => v.name)).toEqual(['a.csv']);
    expect(
      (
        await user.post('/applications/surveys/references/sites', {
          body: form('s.csv', file('csv/surveys-sites.csv')),
        })
      ).status,
    ).toBe(403);
    const list = await user.get('/applications/surveys?filter=ALL');
    expect([list.body.canReadDatatype, list.body.canWriteDatatype, list.body.isMember]).toEqual([true, false, true]);
  });

  it('follow every change at once, however often the user read before: grant, narrowing, role given and taken, revocation', async () => {
    const account = await activeAccount(server);
    const user = await signedIn(server, account);
    const counts = () =>
      user.get(
        '/applications/surveys/data/counts/json?downloadDatasetQuery=' +
          encodeURIComponent(JSON.stringify({ limit: 100 })),
      );
    expect((await counts()).status).toBe(403);
    const rules = (site: string) => ({
      usersId: [account.login],
      authorizationForAll: { sites: ['extraction'], species: ['extraction'] },
      authorizationsWithRestriction: {
        counts: { operationTypes: ['extraction'], requiredAuthorizations: { site: [site] } },
      },
    });
    const granted = await admin.post('/applications/surveys/authorization', {
      json: { name: 'changing', description: 'changes', ...rules('sitesKlac_blanc') },
    });
    expect(granted.status).toBe(201);
    const uuid = granted.body.authorizationId as string;
    expect((await counts()).body.totalRows).toBe(3);
    const narrowed = await admin.post('/applications/surveys/authorization', {
      json: { uuid, name: 'changing', description: 'changes', ...rules('sitesKmont_joly') },
    });
    expect(narrowed.status, narrowed.text).toBe(201);
    expect(keys(await counts())).toEqual(['pyrenees__mont_joly__lagopus__05_06_2024']);
    const role = (method: 'PUT' | 'DELETE') =>
      admin.request(
        method,
        `/authorization/applicationManager?${new URLSearchParams({ userIdOrLogin: account.login, applicationNameOrId: 'surveys' })}`,
      );
    expect((await role('PUT')).status).toBe(200);
    expect((await counts()).body.totalRows).toBe(4);
    expect((await role('DELETE')).status).toBe(200);
    expect((await counts()).body.totalRows).toBe(1);
    expect((await admin.delete(`/applications/surveys/authorization/${uuid}`)).status).toBe(200);
    expect((await counts()).status).toBe(403);
  });

  it('give visitors the public rows only, and revoke', async () => {
    const visitor = new HttpClient(server.url + '/api/v1');
    expect((await visitor.get('/applications/surveys/data/counts/json')).status).toBe(401);
    const opened = await admin.post('/applications/surveys/authorization', {
      json: {
        name: 'open pyrenees',
        description: 'public',
        usersId: ['_public_'],
        authorizationsWithRestriction: {
          counts: {
            operationTypes: ['extraction', 'depot'],
            requiredAuthorizations: { project: ['projectsKpyrenees'] },
          },
        },
      },
    });
    expect(opened.status).toBe(201);
    const json = await visitor.get('/applications/surveys/data/counts/json');
    expect(keys(json)).toEqual(['pyrenees__mont_joly__lagopus__05_06_2024']);
    const listed = (await admin.get('/applications/surveys/authorization')).body.authorizationResults as Array<{
      name: string;
      authorizationsWithRestriction: Record<string, Array<{ operationTypes: string[] }>>;
    }>;
    expect(
      listed.find((a) => a.name === 'open pyrenees')?.authorizationsWithRestriction.counts[0].operationTypes,
    ).toEqual(['extraction']);
    expect((await admin.delete(`/applications/surveys/authorization/${opened.body.authorizationId}`)).status).toBe(200);
    expect((await visitor.get('/applications/surveys/data/counts/json')).status).toBe(401);
  });

  it('let a depositor deposit inside the granted scope only, and publish only with the publication right', async () => {
    const account = await activeAccount(server);
    await admin.post('/applications/surveys/authorization', {
      json: {
        name: 'alps depot',
        description: 'depot on alps',
        usersId: [account.id],
        authorizationsWithRestriction: {
          counts: { operationTypes: ['depot'], requiredAuthorizations: { project: ['projectsKalps'] } },
        },
      },
    });
    const user = await signedIn(server, account);
    const inside = await user.post('/applications/surveys/data/counts', {
      body: form('d.csv', csv(['alps;lac_blanc;lagopus;03/08/2024;2']), {
        ...dataset('alps', 'lac_blanc', '2024-08-01', '2024-08-31'),
        topublish: false,
      }),
    });
    expect(inside.status).toBe(201);
    const outside = await user.post('/applications/surveys/data/counts', {
      body: form('e.csv', csv(['pyrenees;mont_joly;lagopus;03/08/2024;2']), {
        ...dataset('pyrenees', 'mont_joly', '2024-08-01', '2024-08-31'),
        topublish: false,
      }),
    });
    expect(outside.status).toBe(403);
    expect(outside.body.code).toBe('NO_RIGHT_FOR_USER_DATA_WRITER_FOR_DEPOSIT');
    const publishing = await user.post('/applications/surveys/data/counts', {
      json: { fileid: inside.body.fileId, topublish: true },
    });
    expect(publishing.status).toBe(403);
  });

  it('list to a depositor restricted to three years exactly the versions those years cover whole, their own among them, at real size', async () => {
    const account = await activeAccount(server);
    const depot = (toDay: string, uuid?: string) =>
      admin.post('/applications/surveys/authorization', {
        json: {
          uuid: uuid ?? null,
          name: 'alps 2020-2022',
          description: 'deposits on the Alps for three years',
          usersId: [account.login],
          authorizationsWithRestriction: {
            counts: {
              operationTypes: ['depot'],
              requiredAuthorizations: { project: ['projectsKalps'] },
              timeScope: { fromDay: '2020-01-01', toDay },
            },
          },
        },
      });
    const granted = await depot('2022-12-31');
    expect(granted.status, granted.text).toBe(201);
    const user = await signedIn(server, account);
    const month = (year: number, m: number) => {
      const last = new Date(Date.UTC(year, m, 0)).getUTCDate();
      const mm = String(m).padStart(2, '0');
      return {
        name: `alps~mont_joly~${year}-${mm}.csv`,
        from: `${year}-${mm}-01`,
        to: `${year}-${mm}-${last}`,
        line: `alps;mont_joly;lagopus;15/${mm}/${year};1`,
      };
    };
    const upload = (client: HttpClient, name: string, from: string, to: string, lines: string[]) =>
      client.post('/applications/surveys/data/counts', {
        body: form(name, csv(lines), { ...dataset('alps', 'mont_joly', from, to), topublish: false }),
      });
    // Sixty months deposited by someone else, 2019 to 2023, and one reaching from December 2022 into January 2023.
    for (let year = 2019; year <= 2023; year++) {
      for (let m = 1; m <= 12; m++) {
        const { name, from, to, line } = month(year, m);
        expect((await upload(admin, name, from, to, [line])).status, name).toBe(201);
      }
    }
    expect(
      (
        await upload(admin, 'alps~mont_joly~across.csv', '2022-12-15', '2023-01-15', [
          'alps;mont_joly;lagopus;20/12/2022;1',
        ])
      ).status,
    ).toBe(201);
    const own = await upload(user, 'alps~mont_joly~2021-06-mine.csv', '2021-06-01', '2021-06-30', [
      'alps;mont_joly;lagopus;16/06/2021;2',
    ]);
    expect(own.status, own.text).toBe(201);

    const listed = async () => {
      const answer = await user.get(
        `/applications/surveys/filesOnRepository/counts?repositoryId=${encodeURIComponent(JSON.stringify({ requiredAuthorizations: { project: 'projectsKalps', site: 'sitesKmont_joly' } }))}`,
      );
      expect(answer.status).toBe(200);
      return (answer.body as Array<{ name: string }>).map((v) => v.name).sort();
    };
    const months = (years: number[]) =>
      years.flatMap((year) => Array.from({ length: 12 }, (_, i) => month(year, i + 1).name));
    expect(await listed()).toEqual([...months([2020, 2021, 2022]), 'alps~mont_joly~2021-06-mine.csv'].sort());
    // Their right narrowed to 2020: their own deposit of 2021 is no longer theirs to see.
    expect((await depot('2020-12-31', granted.body.authorizationId)).status).toBe(201);
    expect(await listed()).toEqual(months([2020]).sort());
    const mine = await user.get(`/applications/surveys/file/${own.body.fileId}`);
    // As a version that never existed: they may no longer open it.
    expect([mine.status, mine.body.code]).toEqual([404, 'NO_SUCH_FILE']);
  });

  it('never let a user manager give more than they hold', async () => {
    const account = await activeAccount(server);
    expect(
      (await admin.put(`/authorization/userManager?userIdOrLogin=${account.login}&applicationNameOrId=surveys`)).status,
    ).toBe(200);
    const manager = await signedIn(server, account);
    const beyond = await manager.post('/applications/surveys/authorization', {
      json: {
        name: 'more',
        description: 'x',
        usersId: [account.login],
        authorizationForAll: { counts: ['extraction'] },
      },
    });
    expect(beyond.status).toBe(403);
    expect((await manager.get('/applications/surveys/grantable')).status).toBe(200);
    expect(
      (await manager.delete('/applications/surveys/authorization/00000000-0000-0000-0000-000000000000')).status,
    ).toBe(403);
  });

  it('never let a user manager take away more than they could give: rights, people, everything', async () => {
    const account = await activeAccount(server);
    expect(
      (await admin.put(`/authorization/userManager?userIdOrLogin=${account.login}&applicationNameOrId=surveys`)).status,
    ).toBe(200);
    // What this user manager may give: reading species, and reading the counts of Lac Blanc.
    const held = await admin.post('/applications/surveys/authorization', {
      json: {
        name: 'granter',
        description: 'may give species and Lac Blanc',
        usersId: [account.login],
        authorizationForAll: { species: ['extraction', 'admin'] },
        authorizationsWithRestriction: {
          counts: { operationTypes: ['extraction', 'admin'], requiredAuthorizations: { site: ['sitesKlac_blanc'] } },
        },
      },
    });
    expect(held.status, held.text).toBe(201);
    const manager = await signedIn(server, account);
    // More people than a page of the roles screen (15) hold what only a manager gives: every count.
    const people = (await Promise.all(Array.from({ length: 20 }, () => activeAccount(server)))).map(
      (person) => person.login,
    );
    const wide = {
      name: 'all counts',
      description: 'given by a manager',
      usersId: people,
      authorizationForAll: { counts: ['extraction'], species: ['extraction'] },
    };
    const created = await admin.post('/applications/surveys/authorization', { json: wide });
    expect(created.status, created.text).toBe(201);
    const uuid = created.body.authorizationId as string;
    const stored = async () => (await admin.get(`/applications/surveys/authorization/${uuid}`)).body;
    const before = await stored();
    expect(before.users).toHaveLength(20);

    const attempts: Array<[string, object, number, string]> = [
      [
        'narrowed to what they may give',
        { ...wide, uuid, authorizationForAll: { species: ['extraction'] } },
        403,
        'NO_RIGHT_FOR_AUTHORIZATION_CHANGE',
      ],
      ['emptied', { ...wide, uuid, authorizationForAll: {} }, 400, 'NOTHING_GRANTED'],
      [
        'the same rights for one person less',
        { ...wide, uuid, usersId: people.slice(1) },
        403,
        'NO_RIGHT_FOR_SET_RIGHTS_APPLICATION',
      ],
      [
        'what they may give, for themselves only',
        { ...wide, uuid, usersId: [account.login], authorizationForAll: { species: ['extraction'] } },
        403,
        'NO_RIGHT_FOR_AUTHORIZATION_CHANGE',
      ],
      [
        'made public, reading species',
        { ...wide, uuid, usersId: ['_public_'], authorizationForAll: { species: ['extraction'] } },
        403,
        'NO_RIGHT_FOR_AUTHORIZATION_CHANGE',
      ],
    ];
    for (const [what, json, status, code] of attempts) {
      const answer = await manager.post('/applications/surveys/authorization', { json });
      expect([answer.status, answer.body.code], what).toEqual([status, code]);
    }
    const after = await stored();
    expect({ ...after, updatedAt: undefined }).toEqual({ ...before, updatedAt: undefined });
    expect(after.updatedAt).toBe(before.updatedAt);

    // What they could have given, they may change and take away: fewer people, a shorter period.
    const lacBlanc = {
      name: 'Lac Blanc',
      description: 'given by a manager, within what the user manager holds',
      usersId: people,
      authorizationsWithRestriction: {
        counts: { operationTypes: ['extraction'], requiredAuthorizations: { site: ['sitesKlac_blanc'] } },
      },
    };
    const theirs = (await admin.post('/applications/surveys/authorization', { json: lacBlanc })).body
      .authorizationId as string;
    const june = {
      counts: {
        ...lacBlanc.authorizationsWithRestriction.counts,
        timeScope: { fromDay: '2024-06-01', toDay: '2024-06-30' },
      },
    };
    const changed = await manager.post('/applications/surveys/authorization', {
      json: { ...lacBlanc, uuid: theirs, usersId: people.slice(5), authorizationsWithRestriction: june },
    });
    expect(changed.status, changed.text).toBe(201);
    const read = (await admin.get(`/applications/surveys/authorization/${theirs}`)).body;
    expect(read.users.map((user: { login: string }) => user.login).sort()).toEqual(people.slice(5).sort());
    expect(read.authorizationsWithRestriction.counts[0]).toMatchObject({ fromDay: '2024-06-01', toDay: '2024-06-30' });
    // But not empty it: that is revoking, which is the managers' (403 for the user manager, above).
    const emptied = await manager.post('/applications/surveys/authorization', {
      json: { ...lacBlanc, uuid: theirs, authorizationsWithRestriction: {} },
    });
    expect([emptied.status, emptied.body.code]).toEqual([400, 'NOTHING_GRANTED']);

    const missing = await manager.post('/applications/surveys/authorization', {
      json: { ...lacBlanc, uuid: '00000000-0000-4000-8000-000000000000' },
    });
    expect([missing.status, missing.body.code]).toEqual([404, 'NO_SUCH_AUTHORIZATION']);
  });
});
