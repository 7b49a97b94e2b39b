/**
 * The upload kit's deposit script, run for real (issue 25): monsore is loaded from the corpus (references and data
 * without versioning), its kit downloaded, and `deposit.mjs` taken from the zip and run with `node` against the
 * test server over HTTP on a folder of pem files — the corpus's pem rows cut into one file per dataset, as
 * corpusApplications plans their deposits, each named by pem's file-name pattern — plus a file whose name follows
 * no pattern and one whose lines are refused. Run twice, the first run losing one answer on the way back: each file
 * gives exactly one version, the second run finds them all already there. The script's reading of names (bundled
 * from src/domain) agrees with `readDepositTarget`, and its requests carry the idempotency key the server keeps.
 */
import { spawn } from 'node:child_process';
import { createServer, request as forward, type Server } from 'node:http';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { depositKit, readDepositTarget, type DepositKit } from '../../src/domain/bundle/depositTargets.ts';
import type { BundleManifest } from '../../src/domain/bundle/manifest.ts';
import { naturalPath } from '../../src/domain/deposits/scopeValues.ts';
import { depositKey } from '../../server/kit/depositKey.ts';
import { depositRequest } from '../../server/kit/depositRequest.ts';
import { loadCorpus } from '../corpus/manifest.ts';
import { corpusApplications, type CorpusApplication } from './corpusApplications.ts';
import { ROOT, createApplication, csvForm, fetchBytes, startDataServer, type DataServer } from './dataFixtures.ts';

const corpus = loadCorpus();
const monsore = corpus ? corpusApplications(corpus).applications.find((app) => app.name === 'monsore') : undefined;
/** Loading monsore and depositing its files twice with a child process, on a busy machine. */
const RUN_MS = 240_000;

const NO_PATTERN = 'field notes.csv';
let refused: string;

let data: DataServer;
let folder: string;
let script: string;
let kit: DepositKit;
let pemFiles: Map<string, string>;

const ddMMyyyy = (iso: string) => `${iso.slice(8, 10)}-${iso.slice(5, 7)}-${iso.slice(0, 4)}`;

/**
 * The pem deposits the corpus plan makes (one per dataset), each named as pem's pattern wants: project, the site's
 * path of natural keys, first and last day. Two of the same name would be one file: the first is kept.
 */
function namedDeposits(app: CorpusApplication): Map<string, string> {
  const files = new Map<string, string>();
  for (const deposit of app.deposits) {
    const { projet, chemin } = deposit.scope;
    const name = `${naturalPath(projet)}!${naturalPath(chemin)}!${ddMMyyyy(deposit.from!)}!${ddMMyyyy(deposit.to!)}.csv`;
    if (!files.has(name)) files.set(name, deposit.text);
  }
  return files;
}

function runScript(...args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      env: { ...process.env, TERRAIN_LOGIN: ROOT.login, TERRAIN_PASSWORD: ROOT.password },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

/**
 * A way to the server that loses the answer of one successful deposit, the server having done it (a connection cut
 * as the answer comes back): the run meets a failure midway.
 */
async function losingOneAnswer(target: string, lost: number): Promise<{ url: string; server: Server }> {
  const upstream = new URL(target);
  let deposited = 0;
  const server = createServer((incoming, outgoing) => {
    const passed = forward(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: incoming.url,
        method: incoming.method,
        headers: incoming.headers,
      },
      (answer) => {
        if (incoming.method === 'POST' && answer.statusCode === 201 && ++deposited === lost) {
          answer.resume();
          answer.on('end', () => outgoing.socket?.destroy());
          return;
        }
        outgoing.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(outgoing);
      },
    );
    incoming.pipe(passed);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}`, server };
}

/** The pem versions on the server, by file name. */
async function pemVersions(): Promise<Map<string, string[]>> {
  const answer = await data.admin.get('/applications/monsore/filesOnRepository/pem');
  expect(answer.status, answer.text).toBe(200);
  const byName = new Map<string, string[]>();
  for (const version of answer.body as Array<{ id: string; name: string }>)
    byName.set(version.name, [...(byName.get(version.name) ?? []), version.id]);
  return byName;
}

const lineOf = (out: string, file: string) => out.split('\n').find((line) => line.includes(`] ${file}`)) ?? '';

describe.skipIf(!monsore)("the upload kit's deposit script", () => {
  beforeAll(async () => {
    const app = monsore!;
    data = await startDataServer();
    await createApplication(data.admin, app.name, app.configuration, app.configurationFile);
    for (const upload of app.uploads) {
      const entry = app.model.data.find((item) => item.name === upload.dataName)!;
      const route = entry.kind === 'reference' ? 'references' : 'data';
      const answer = await data.admin.post(`/applications/${app.name}/${route}/${upload.dataName}`, {
        body: csvForm(upload.fileName, upload.text),
      });
      expect(answer.status, `${upload.fileName}: ${answer.text}`).toBe(201);
    }

    const bundle = await fetchBytes(data, `/applications/${app.name}/upload-bundle?locale=en`);
    expect(bundle.status).toBe(200);
    const files = unzipSync(bundle.bytes);
    const manifest = JSON.parse(new TextDecoder().decode(files['manifest.json'])) as BundleManifest;
    expect(manifest.depositScript?.path).toBe('deposit.mjs');
    expect(new TextDecoder().decode(files['README.md'])).toContain('## Depositing a folder with the script');

    folder = await mkdtemp(path.join(tmpdir(), 'terrain-kit-'));
    script = path.join(folder, 'deposit.mjs');
    await writeFile(script, files['deposit.mjs']);
    const deposits = path.join(folder, 'pem');
    await mkdir(deposits);
    pemFiles = namedDeposits(app);
    for (const [name, text] of pemFiles) await writeFile(path.join(deposits, name), text);
    await writeFile(path.join(deposits, NO_PATTERN), 'anything\n');
    // Valid rows, outside the period the name gives: every line is refused.
    const [firstName, firstText] = [...pemFiles][0];
    refused = firstName.replace(/![^!]*![^!]*$/, '!01-01-2030!02-01-2030.csv');
    await writeFile(path.join(deposits, refused), firstText);
    kit = depositKit(app.name, app.model);
  }, RUN_MS);

  afterAll(async () => {
    await data?.server.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('reads file names as the deposit form does', async () => {
    const names = [...pemFiles.keys(), NO_PATTERN, refused].sort();
    const { code, out } = await runScript(path.join(folder, 'pem'), '--plan');
    expect(code, out).toBe(0);
    expect(JSON.parse(out)).toEqual(names.map((file) => ({ file, ...readDepositTarget(kit.targets, file) })));
    expect(pemFiles.size).toBeGreaterThan(1);
  });

  it(
    'deposits each file once, however often it runs, also after a failure midway',
    async () => {
      const cut = await losingOneAnswer(data.server.url, 2);
      const first = await runScript(cut.url, path.join(folder, 'pem'));
      cut.server.close();
      expect(first.code, first.out).toBe(1);
      const lost = [...pemFiles.keys()].filter((name) => lineOf(first.out, name).includes('failed: REQUEST_FAILED'));
      expect(lost, first.out).toHaveLength(1);
      for (const name of pemFiles.keys())
        if (name !== lost[0]) expect(lineOf(first.out, name), first.out).toMatch(/→ pem \(.*\): deposited/);
      expect(lineOf(first.out, NO_PATTERN), first.out).toContain('skipped, its name follows no file-name pattern');
      expect(lineOf(first.out, refused), first.out).toContain('failed: INVALID_CSV');
      expect(first.out).toMatch(/^ {4}timerangeoutofinterval \(column date\): \d+ lines \(5, 6, 7/m);
      expect(first.out).toContain(
        `${pemFiles.size + 2} files: ${pemFiles.size - 1} deposited, 0 already there, 1 skipped, 2 failed.`,
      );

      expect(first.out).toContain(`Failed: ${refused} (INVALID_CSV)`);

      // The lost answer's deposit was done: it is there once, like the others.
      const afterFirst = await pemVersions();
      expect([...afterFirst.keys()].sort()).toEqual([...pemFiles.keys()].sort());
      for (const ids of afterFirst.values()) expect(ids).toHaveLength(1);

      const second = await runScript(data.server.url, path.join(folder, 'pem'));
      expect(second.code, second.out).toBe(1);
      for (const [name, ids] of afterFirst)
        expect(lineOf(second.out, name), second.out).toContain(`already there (version ${ids[0]})`);
      expect(second.out).toContain(
        `${pemFiles.size + 2} files: 0 deposited, ${pemFiles.size} already there, 1 skipped, 1 failed.`,
      );
      expect(await pemVersions()).toEqual(afterFirst);
    },
    RUN_MS,
  );

  it('sent each deposit under the key the server keeps: sent again, it is answered from it', async () => {
    const [name, text] = [...pemFiles][0];
    const reading = readDepositTarget(kit.targets, name);
    if (reading.kind !== 'found') throw new Error(`${name} names no data type`);
    const content = new TextEncoder().encode(text);
    const request = depositRequest('monsore', reading, name, content, { publish: false, comment: '' });
    const before = await pemVersions();
    const answer = await fetch(`${data.server.url}/api/v1/applications/monsore/data/pem`, {
      method: 'POST',
      headers: { authorization: `Bearer ${data.token}`, 'idempotency-key': depositKey(request) },
      body: csvForm(name, content, JSON.parse(request.params) as object),
    });
    expect(answer.headers.get('idempotent-replayed')).toBe('true');
    expect(((await answer.json()) as { fileId: string }).fileId).toBe(before.get(name)![0]);
    expect(await pemVersions()).toEqual(before);
  });
});
