/**
 * What the load test needs on a fresh server: the stations application with its sites, a measures reference,
 * published readings, reader accounts allowed to read everything and uploader accounts allowed to load measures,
 * each signed in (every connection of the load test is one session). All through the API, as users would.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseMail } from '../server/harness.ts';
import {
  APPLICATION,
  VERSIONED_YAML,
  generateMeasures,
  readingsCsv,
  sitesCsv,
  yearDataset,
} from '../bench/versionedData.ts';
import { Operator, fileForm } from '../processes/operator.ts';
import { signIn, type TerrainProcess } from '../processes/terrainServer.ts';

export interface Seeded {
  readerTokens: string[];
  uploaderTokens: string[];
  measures: number;
  readings: number;
}

export interface SeedSizes {
  measures: number;
  /** Published versions (one site each, one year) and rows in each. */
  versions: number;
  rowsPerVersion: number;
  readerAccounts: number;
  readerSessions: number;
  uploaders: number;
}

export const expectStatus = (what: string, answer: { status: number; text: string }, status: number) => {
  if (answer.status !== status) throw new Error(`${what} answered ${answer.status}: ${answer.text.slice(0, 500)}`);
};

async function keyMailedTo(server: TerrainProcess, email: string): Promise<string> {
  const outbox = path.join(server.options.dataDir, 'outbox');
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const files = (await readdir(outbox).catch(() => [] as string[])).filter((file) => file.endsWith('.eml')).sort();
    for (const file of files.reverse()) {
      const mail = parseMail(await readFile(path.join(outbox, file), 'utf8'));
      if (mail.to.toLowerCase() === email && mail.key) return mail.key;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no key mailed to ${email}`);
}

/** Registers and activates an account; answers its login and password. */
async function account(server: TerrainProcess, login: string) {
  const identity = { login, password: `Load-${login}-password`, email: `${login}@load.terrain.test` };
  const registered = await fetch(`${server.url}/api/v1/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(identity).toString(),
  });
  expectStatus(`registration of ${login}`, { status: registered.status, text: await registered.text() }, 201);
  const verificationKey = await keyMailedTo(server, identity.email);
  const activated = await fetch(`${server.url}/api/v1/users`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login, password: identity.password, verificationKey }),
  });
  expectStatus(`activation of ${login}`, { status: activated.status, text: await activated.text() }, 200);
  return identity;
}

export async function seed(server: TerrainProcess, sizes: SeedSizes, log: (line: string) => void): Promise<Seeded> {
  const operator = await Operator.of(server);
  const created = await operator.call(
    'POST',
    `/applications/${APPLICATION}`,
    fileForm('stations.yaml', VERSIONED_YAML),
  );
  if (!created.text.includes('"type":"result"')) throw new Error(`application: ${created.text.slice(0, 500)}`);
  expectStatus(
    'sites',
    await operator.call('POST', `/applications/${APPLICATION}/references/sites`, fileForm('sites.csv', sitesCsv())),
    201,
  );
  expectStatus(
    'measures',
    await operator.call(
      'POST',
      `/applications/${APPLICATION}/references/measures`,
      fileForm('measures.csv', generateMeasures(sizes.measures)),
    ),
    201,
  );
  log(`seeded ${sizes.measures.toLocaleString('en')} measures`);

  let readings = 0;
  for (let site = 0; site < sizes.versions; site += 1) {
    const { text, rows } = readingsCsv(sizes.rowsPerVersion, site, 2020);
    const deposited = await operator.call(
      'POST',
      `/applications/${APPLICATION}/data/readings`,
      fileForm(`readings-${site}.csv`, text, { ...yearDataset(site, 2020), topublish: true }),
    );
    expectStatus(`readings of site ${site}`, deposited, 202);
    for (;;) {
      const state = await operator.call(
        'GET',
        `/applications/${APPLICATION}/file/${deposited.body.fileId}/publication-state`,
      );
      if (state.body.job?.status === 'failed')
        throw new Error(`publication of site ${site}: ${JSON.stringify(state.body.job.error)}`);
      if (state.body.job?.status === 'done') break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    readings += rows;
  }
  log(`seeded ${readings.toLocaleString('en')} published readings`);

  const readers = [];
  for (let index = 0; index < sizes.readerAccounts; index += 1) readers.push(await account(server, `reader${index}`));
  const uploaders = [];
  for (let index = 0; index < sizes.uploaders; index += 1) uploaders.push(await account(server, `uploader${index}`));
  const granted = await operator.call('POST', `/applications/${APPLICATION}/authorization`, {
    uuid: null,
    name: 'load readers',
    description: 'read everything',
    usersId: readers.map((reader) => reader.login),
    authorizationForAll: { sites: ['extraction'], measures: ['extraction'], readings: ['extraction'] },
    authorizationsWithRestriction: {},
  });
  expectStatus('readers authorization', granted, 201);
  const depot = await operator.call('POST', `/applications/${APPLICATION}/authorization`, {
    uuid: null,
    name: 'load uploaders',
    description: 'load measures',
    usersId: uploaders.map((uploader) => uploader.login),
    authorizationForAll: { sites: ['extraction'], measures: ['depot'] },
    authorizationsWithRestriction: {},
  });
  expectStatus('uploaders authorization', depot, 201);

  const readerTokens: string[] = [];
  for (let session = 0; session < sizes.readerSessions; session += 1) {
    const reader = readers[session % readers.length];
    readerTokens.push(await signIn(server.url, reader.login, reader.password));
  }
  const uploaderTokens = await Promise.all(
    uploaders.map((uploader) => signIn(server.url, uploader.login, uploader.password)),
  );
  log(`${readers.length} reader accounts (${readerTokens.length} sessions), ${uploaders.length} uploaders`);
  return { readerTokens, uploaderTokens, measures: sizes.measures, readings };
}
