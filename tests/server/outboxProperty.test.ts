import 'fake-indexeddb/auto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RowCounter } from '../../server/services/applications.ts';
import { bundleRestore, configurationUpload } from '../../src/features/applications/outboxRequests.ts';
import { SIGNED_IN_SETTING, TerrainDatabase } from '../../src/offline/db.ts';
import { createOutbox, type Outbox } from '../../src/offline/outbox.ts';
import type { OutboxItem } from '../../src/offline/outboxTypes.ts';
import { GENEROUS_RATE_LIMITS } from './accountFixtures.ts';
import {
  createApplication,
  creatorUser,
  fixture,
  fieldnotesVersion,
  sessionOf,
  type SignedInUser,
} from './applicationFixtures.ts';
import { FlakyNetwork, type CrashFault, type DropFault } from './flakyNetwork.ts';
import { idempotencyKeyStatus, startTestServer, type TestServer } from './harness.ts';

/**
 * The outbox against the real server, over HTTP, through a network that loses requests and answers, turns
 * answers into 503, goes offline and back, and a tab that crashes in the middle of a send (the next tab opens a
 * new outbox over the same IndexedDB database, with the item left `sending`). Random sequences of 200
 * configuration uploads (seeded: OUTBOX_PROPERTY_SEED, OUTBOX_PROPERTY_RUNS) must end with every accepted
 * upload applied exactly once and in order, nothing lost, and each refusal waiting for the user.
 */

const SEED = Number(process.env.OUTBOX_PROPERTY_SEED ?? 20_260_601);
const RUNS = Number(process.env.OUTBOX_PROPERTY_RUNS ?? 1);
const MUTATIONS = Number(process.env.OUTBOX_PROPERTY_MUTATIONS ?? 200);
const APPLICATIONS = 3;
const ADMIN = { login: 'root', password: 'root-password', email: 'root@terrain.test' };
/** Past the longest backoff (5 min + 20 % jitter), so "time passes" makes every queued item due. */
const TIME_STEP_MS = 10 * 60 * 1000;

type Event =
  | { type: 'offline' }
  | { type: 'online' }
  | { type: 'time' }
  | { type: 'sync' }
  | { type: 'crash'; crash: CrashFault }
  /** The user opens the pending changes and discards the refused uploads that hold an application back. */
  | { type: 'discard-refused' };

type Mutation =
  /** The next version of application `app`: the server accepts it. */
  | { type: 'update'; app: number }
  /** An invalid configuration for application `app`: refused by the server's validation (in the stream). */
  | { type: 'invalid'; app: number }
  /** Creation of an application whose name the user may not create: 403 before anything is read. */
  | { type: 'forbidden' };

interface Step {
  before: Event[];
  mutation: Mutation;
  /** Faults met by the requests of this submission's pass. */
  faults: DropFault[];
  /** The tab dies while this submission's pass sends. */
  crash: CrashFault | null;
}

const crashes = fc.constantFrom<CrashFault>('crash-before', 'crash-after', 'crash-mid-stream');
const event: fc.Arbitrary<Event> = fc.oneof(
  { weight: 4, arbitrary: fc.constant<Event>({ type: 'offline' }) },
  { weight: 4, arbitrary: fc.constant<Event>({ type: 'online' }) },
  { weight: 2, arbitrary: fc.constant<Event>({ type: 'time' }) },
  { weight: 1, arbitrary: fc.constant<Event>({ type: 'sync' }) },
  { weight: 2, arbitrary: crashes.map((crash): Event => ({ type: 'crash', crash })) },
  { weight: 1, arbitrary: fc.constant<Event>({ type: 'discard-refused' }) },
);
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 12, arbitrary: fc.nat(APPLICATIONS - 1).map((app): Mutation => ({ type: 'update', app })) },
  { weight: 1, arbitrary: fc.nat(APPLICATIONS - 1).map((app): Mutation => ({ type: 'invalid', app })) },
  { weight: 1, arbitrary: fc.constant<Mutation>({ type: 'forbidden' }) },
);
const step: fc.Arbitrary<Step> = fc.record({
  before: fc.array(event, { maxLength: 2 }),
  mutation,
  faults: fc.array(
    fc.constantFrom<DropFault>('drop-request', 'drop-response', 'drop-mid-stream', '503-before', '503-after'),
    { maxLength: 2 },
  ),
  crash: fc.oneof({ weight: 15, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: crashes }),
});

interface Submitted {
  index: number;
  mutation: Mutation;
  name: string;
  fileName: string;
  version?: string;
  /** What `submit` answered; undefined when the tab crashed during it. */
  outcome?: 'done' | 'queued' | 'needs-attention';
}

let server: TestServer;
let creator: SignedInUser;
const measures: string[] = [];

/**
 * The server takes a moment between the first lines of an update's answer and storing it (where the stored-rows
 * check runs), so a connection broken after the first lines breaks it while the work goes on — as over a slow
 * tablet link.
 */
const SLOW_UPDATE_MS = 15;
const slowCountRows: RowCounter = async () => {
  await new Promise((resolve) => setTimeout(resolve, SLOW_UPDATE_MS));
  return {};
};

beforeAll(async () => {
  server = await startTestServer({ admin: ADMIN, ...GENEROUS_RATE_LIMITS }, {}, { countRows: slowCountRows });
  const admin = await sessionOf(server, { ...ADMIN, id: '' });
  creator = await creatorUser(server, admin.client, ['prop_.*'], 'propcreator');
});
afterAll(async () => {
  if (measures.length > 0) console.info(measures.join('\n'));
  await server?.close();
});

let runNumber = 0;

/** One random sequence, from fresh applications and an empty browser database to the assertions. */
async function run(steps: Step[]) {
  runNumber += 1;
  const started = Date.now();
  const prefix = `prop_${runNumber}_${Date.now().toString(36)}`;
  const apps = Array.from({ length: APPLICATIONS }, (_, i) => `${prefix}_${String.fromCharCode(97 + i)}`);
  for (const name of apps)
    await createApplication(creator.client, name, { name: 'fieldnotes-v1.yaml', bytes: fixture('fieldnotes-v1.yaml') });

  const network = new FlakyNetwork({ authorization: `Bearer ${creator.token}` });
  let clock = 1_000_000_000;
  const dbName = `outbox-property-${prefix}`;
  let db = new TerrainDatabase(dbName);
  const open = () => createOutbox({ db, fetch: network.fetch, now: () => clock, apiBase: `${server.url}/api/v1` });
  let outbox: Outbox = open();
  let reloads = 0;
  let maxPending = 0;
  const nextPatch = apps.map(() => 1);
  const submitted: Submitted[] = [];
  const trace: string[] = [];

  /** The tab dies: its outbox is never heard of again; a new tab opens the same database. */
  function reload() {
    db.close();
    db = new TerrainDatabase(dbName);
    outbox = open();
    reloads += 1;
  }

  /** Runs `work` in a tab that may crash on `crash`: the crash, if met, kills the tab and reopens one. */
  async function mayCrash<T>(crash: CrashFault, work: () => Promise<T>): Promise<{ crashed: boolean; value?: T }> {
    network.inject(crash);
    const crashed = network.crashed().then(() => ({ crashed: true as const }));
    const finished = work().then((value) => ({ crashed: false as const, value }));
    const outcome = await Promise.race([crashed, finished]);
    network.clearFaults();
    // A crash planned for a pass that sent nothing still closes the tab.
    reload();
    return outcome;
  }

  async function discardRefusedUpdates() {
    for (const item of await outbox.items()) {
      if (item.status === 'needs-attention' && item.kind === 'application.update') {
        trace.push(`  discard ${item.summary.fileName}`);
        await outbox.discard(item.id!);
      }
    }
  }

  async function play(e: Event) {
    trace.push(`  ${e.type}${e.type === 'crash' ? ` ${e.crash}` : ''}`);
    switch (e.type) {
      case 'offline':
        network.online = false;
        return;
      case 'online':
        // The page's 'online' trigger lifts the hold that sends were under while the network was away.
        network.online = true;
        return outbox.resume();
      case 'time':
        clock += TIME_STEP_MS;
        return outbox.process();
      case 'sync':
        return outbox.process();
      case 'crash':
        await mayCrash(e.crash, () => outbox.process());
        return;
      case 'discard-refused':
        return discardRefusedUpdates();
    }
  }

  function submissionOf(index: number, m: Mutation) {
    if (m.type === 'update') {
      const from = `1.0.${nextPatch[m.app] - 1}`;
      const version = `1.0.${nextPatch[m.app]++}`;
      const fileName = `fieldnotes-${version}.yaml`;
      const file = new File([fieldnotesVersion(version) as Uint8Array<ArrayBuffer>], fileName);
      return {
        name: apps[m.app],
        fileName,
        version,
        submission: configurationUpload({ name: apps[m.app], comment: `step ${index}`, file, currentVersion: from }),
      };
    }
    if (m.type === 'invalid') {
      const fileName = `broken-${index}.yaml`;
      const file = new File([fixture('broken.yaml') as Uint8Array<ArrayBuffer>], fileName);
      return {
        name: apps[m.app],
        fileName,
        submission: configurationUpload({
          name: apps[m.app],
          comment: `step ${index}`,
          file,
          currentVersion: `1.0.${nextPatch[m.app] - 1}`,
        }),
      };
    }
    const name = `other_${prefix.slice(5)}_${index}`;
    const fileName = `fieldnotes-forbidden-${index}.yaml`;
    const file = new File([fixture('fieldnotes-v1.yaml') as Uint8Array<ArrayBuffer>], fileName);
    return { name, fileName, submission: configurationUpload({ name, comment: `step ${index}`, file }) };
  }

  for (const [index, s] of steps.entries()) {
    for (const e of s.before) await play(e);
    const { name, fileName, version, submission } = submissionOf(index, s.mutation);
    const record: Submitted = { index, mutation: s.mutation, name, fileName, version };
    submitted.push(record);
    network.inject(...s.faults);
    if (s.crash) {
      const outcome = await mayCrash(s.crash, () => outbox.submit(submission));
      record.outcome = outcome.value?.status;
    } else {
      record.outcome = (await outbox.submit(submission)).status;
      network.clearFaults();
    }
    trace.push(
      `#${index} ${s.mutation.type} ${fileName} [${[...s.faults, ...(s.crash ? [s.crash] : [])].join(',')}] ${network.online ? 'online' : 'offline'} → ${record.outcome ?? 'crashed'}`,
    );
    maxPending = Math.max(maxPending, await outbox.pendingCount());
  }

  // Back online for good: the passes go on (time passing for backoffs, the user discarding refused uploads that
  // hold their application back) until nothing is left to send.
  network.online = true;
  let passes = 0;
  for (; passes < 40; passes++) {
    clock += TIME_STEP_MS;
    await outbox.process();
    await discardRefusedUpdates();
    const items = await outbox.items();
    if (!items.some((item) => item.status === 'queued' || item.status === 'sending')) break;
  }

  const items = await outbox.items();
  const describe = (item: OutboxItem) =>
    `${item.summary.fileName}: ${item.status}${item.lastError ? ` (${item.lastError.status} ${item.lastError.code}${item.lastError.problems?.length ? ` ${item.lastError.problems.map((p) => p.code).join(',')}` : ''})` : ''}`;
  const context = () =>
    `seed ${SEED}, run ${runNumber}\n${trace.join('\n')}\noutbox:\n${items.map(describe).join('\n')}`;

  // None lost: nothing remains to send; what remains waiting is a refusal, for the user.
  expect(
    items.filter((item) => item.status === 'queued' || item.status === 'sending').map(describe),
    context(),
  ).toEqual([]);
  const byFile = new Map(items.map((item) => [item.summary.fileName, item]));
  const accepted = submitted.filter((s) => s.mutation.type === 'update');
  const refused = submitted.filter((s) => s.mutation.type !== 'update');
  // Every accepted upload was applied (its item is done), none was refused on the way (a duplicate would be).
  expect(
    accepted
      .filter((s) => s.outcome === 'needs-attention' || byFile.get(s.fileName)?.status !== 'done')
      .map((s) => s.fileName),
    context(),
  ).toEqual([]);
  // Every refusal either went back to the form at once or waits in needs-attention, unless the user discarded it.
  for (const s of refused) {
    const item = byFile.get(s.fileName);
    if (item)
      expect(describe(item), context()).toMatch(/needs-attention \((403 NO_RIGHT_FOR_APPLICATION_CREATION|200 .*)\)/);
    if (!item && s.mutation.type === 'forbidden')
      expect(s.outcome, `${s.fileName}\n${context()}`).toBe('needs-attention');
  }
  expect(
    items
      .filter((item) => item.status === 'needs-attention')
      .every(
        (item) =>
          item.summary.fileName.startsWith('fieldnotes-forbidden-') || item.summary.fileName.startsWith('broken-'),
      ),
    context(),
  ).toBe(true);

  // Exactly once, in order: each application holds its first version and the accepted ones in submission order.
  for (const [app, name] of apps.entries()) {
    const answer = await creator.client.get(`/applications/${name}`);
    expect(answer.status).toBe(200);
    const stored = (answer.body.versions as Array<{ version: string; uploadedAt: string }>)
      .map((v) => v.version)
      .reverse();
    const expected = [
      '1.0.0',
      ...accepted.filter((s) => s.mutation.type === 'update' && s.mutation.app === app).map((s) => s.version!),
    ];
    expect(stored, `${name}\n${context()}`).toEqual(expected);
    expect(answer.body.version).toBe(expected[expected.length - 1]);
  }
  // Refused creations created nothing.
  for (const s of refused.filter((r) => r.mutation.type === 'forbidden')) {
    expect((await creator.client.get(`/applications/${s.name}`)).status).toBe(404);
  }

  const c = network.counters;
  measures.push(
    `outbox property, seed ${SEED} run ${runNumber}: ${steps.length} mutations (${accepted.length} accepted, ${refused.length} refused) in ${Date.now() - started} ms; ` +
      `${c.attempts} sends (${c.offline} offline, ${c.reachedServer} reached the server in ${Math.round(c.serverMs)} ms, ${c.replayed} answered from the idempotency store, ${c.inProgress} × 409 in progress); ` +
      `faults ${Object.entries(c.faults)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}; ${reloads} reloads; at most ${maxPending} pending; ${passes + 1} final passes`,
  );
  db.close();
}

describe('the outbox against the real server', () => {
  it('gets the kept answer when the connection broke in the middle of a streamed answer, without running the upload twice', async () => {
    const name = `prop_cut_${Date.now().toString(36)}`;
    await createApplication(creator.client, name);
    const network = new FlakyNetwork({ authorization: `Bearer ${creator.token}` });
    const outbox = createOutbox({
      db: new TerrainDatabase(`outbox-cut-${name}`),
      fetch: network.fetch,
      apiBase: `${server.url}/api/v1`,
    });
    const file = new File([fieldnotesVersion('1.0.1') as Uint8Array<ArrayBuffer>], 'fieldnotes-1.0.1.yaml');
    network.inject('drop-mid-stream');
    expect(
      (await outbox.submit(configurationUpload({ name, comment: '', file, currentVersion: '1.0.0' }))).status,
    ).toBe('queued');
    // The server finishes the upload meanwhile; the resend, with the same key, is answered from the kept answer.
    const [queued] = await outbox.items();
    await expect.poll(() => idempotencyKeyStatus(server, queued.idempotencyKey)).toBe('done');
    // The server answers the page again (any call), which lifts the hold the broken connection put sends under.
    await outbox.resume();
    const [item] = await outbox.items();
    expect(item.status, JSON.stringify(item.lastError)).toBe('done');
    expect(item.result).toMatchObject({ name, version: '1.0.1' });
    expect(network.counters).toMatchObject({ reachedServer: 2, replayed: 1, inProgress: 0 });
    const versions = (await creator.client.get(`/applications/${name}`)).body.versions.map(
      (v: { version: string }) => v.version,
    );
    expect(versions).toEqual(['1.0.1', '1.0.0']);
  });

  it('finishes a restore whose connection broke, and gives its result to the resend, restoring once', async () => {
    const source = `prop_bk_${Date.now().toString(36)}`;
    const name = `prop_rs_${Date.now().toString(36)}`;
    await createApplication(creator.client, source);
    const backup = await fetch(`${server.url}/api/v1/applications/${source}/upload-bundle?withData=true`, {
      headers: { authorization: `Bearer ${creator.token}` },
    });
    expect(backup.status).toBe(200);
    const file = new File([await backup.arrayBuffer()], `${source}.zip`);
    const network = new FlakyNetwork({ authorization: `Bearer ${creator.token}` });
    const outbox = createOutbox({
      db: new TerrainDatabase(`outbox-restore-${name}`),
      fetch: network.fetch,
      apiBase: `${server.url}/api/v1`,
    });
    network.inject('drop-mid-stream');
    expect((await outbox.submit(bundleRestore({ name, file }))).status).toBe('queued');
    // The restorer's tablet left; the server goes on, and keeps the answer for the resend.
    const [queued] = await outbox.items();
    await expect.poll(() => idempotencyKeyStatus(server, queued.idempotencyKey), { timeout: 60_000 }).toBe('done');
    await outbox.resume();
    const [item] = await outbox.items();
    expect(item.status, JSON.stringify(item.lastError)).toBe('done');
    expect(item.result).toMatchObject({ name });
    expect(network.counters).toMatchObject({ reachedServer: 2, replayed: 1 });
    const restored = await server.server.ctx.db
      .selectFrom('applications')
      .select(['name', 'restoring_since'])
      .where('name', '=', name)
      .execute();
    expect(restored).toEqual([{ name, restoring_since: null }]);
  });

  it('sends at once an edited refused upload that replaces it, and tells whether the server was reached', async () => {
    const name = `prop_edit_${Date.now().toString(36)}`;
    await createApplication(creator.client, name);
    const network = new FlakyNetwork({ authorization: `Bearer ${creator.token}` });
    const reached: boolean[] = [];
    const outbox = createOutbox({
      db: new TerrainDatabase(`outbox-edit-${name}`),
      fetch: network.fetch,
      apiBase: `${server.url}/api/v1`,
      onReachability: (r) => reached.push(r),
    });
    const upload = (fileName: string, bytes: Uint8Array) =>
      configurationUpload({
        name,
        comment: '',
        file: new File([bytes as Uint8Array<ArrayBuffer>], fileName),
        currentVersion: '1.0.0',
      });

    network.online = false;
    expect((await outbox.submit(upload('broken.yaml', fixture('broken.yaml')))).status).toBe('queued');
    network.online = true;
    await outbox.resume();
    const [refused] = await outbox.items();
    expect(refused.status).toBe('needs-attention');
    expect(reached).toEqual([false, true]);

    // The form reopened from the refused change saves a corrected file for the same application: the new change
    // replaces the refused one instead of queueing behind it, and goes at once.
    const outcome = await outbox.submit(upload('fieldnotes-1.0.1.yaml', fieldnotesVersion('1.0.1')), {
      replaces: refused.id,
    });
    expect(outcome).toMatchObject({ status: 'done', result: { name, version: '1.0.1' } });
    expect((await outbox.items()).map((item) => [item.summary.fileName, item.status])).toEqual([
      ['fieldnotes-1.0.1.yaml', 'done'],
    ]);
    expect(reached).toEqual([false, true, true]);
  });

  it('on a shared tablet, sends a change only in the session of whoever made it, once they sign in again', async () => {
    const admin = await sessionOf(server, { ...ADMIN, id: '' });
    const suffix = Date.now().toString(36);
    const ana = await creatorUser(server, admin.client, [`ana_${suffix}.*`], 'ana');
    const ben = await creatorUser(server, admin.client, [`ben_${suffix}.*`], 'ben');
    let device: SignedInUser = ana;
    let online = false;
    // The browser sends the session of whoever is signed in on the device.
    const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      if (!online) throw new TypeError('Failed to fetch');
      return globalThis.fetch(input, {
        ...init,
        headers: { ...(init?.headers as Record<string, string>), authorization: `Bearer ${device.token}` },
      });
    }) as typeof globalThis.fetch;
    const db = new TerrainDatabase(`outbox-shared-${suffix}`);
    // What the page records at each sign-in and sign-out (src/offline/currentUser.ts).
    const signIn = async (user: SignedInUser | null) => {
      if (user) device = user;
      await db.settings.put({ key: SIGNED_IN_SETTING, value: user?.login ?? null });
    };
    const outbox = createOutbox({ db, fetch, apiBase: `${server.url}/api/v1` });
    const creation = (name: string) =>
      configurationUpload({
        name,
        comment: '',
        file: new File([fixture('fieldnotes-v1.yaml') as Uint8Array<ArrayBuffer>], 'fieldnotes-v1.yaml'),
      });

    await signIn(ana);
    expect((await outbox.submit(creation(`ana_${suffix}`))).status).toBe('queued');
    await signIn(null);
    online = true;
    await signIn(ben);
    expect(await outbox.submit(creation(`ben_${suffix}`))).toMatchObject({ status: 'done' });
    await outbox.process();
    expect((await admin.client.get(`/applications/ana_${suffix}`)).status).toBe(404);
    const [waiting] = (await outbox.items()).filter((item) => item.status === 'queued');
    // Never tried in Ben's session (the offline try did not count).
    expect(waiting).toMatchObject({ owner: ana.login, attempts: 0 });

    await signIn(ana);
    await outbox.process();
    expect((await outbox.items()).map((item) => [item.summary.name, item.owner, item.status])).toEqual([
      [`ana_${suffix}`, ana.login, 'done'],
      [`ben_${suffix}`, ben.login, 'done'],
    ]);
    expect((await admin.client.get(`/applications/ana_${suffix}`)).status).toBe(200);
  });

  it(
    `applies every accepted upload exactly once and in order, loses none, and keeps refusals for the user (${MUTATIONS} mutations)`,
    { timeout: 300_000 },
    async () => {
      // Sequences drawn from the seed and played one after the other. No shrinking: each run talks to a real server,
      // and the failure message carries the trace of the run (each step, its faults and its outcome).
      for (const steps of fc.sample(fc.array(step, { minLength: MUTATIONS, maxLength: MUTATIONS }), {
        seed: SEED,
        numRuns: RUNS,
      }))
        await run(steps);
    },
  );
});
