import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { RUNNING_BUILD } from '@/lib/build';
import { TerrainDatabase } from './db';
import { createOutbox, type Submission } from './outbox';
import { readSendHold } from './sendHold';

let databases = 0;
const freshDb = () => new TerrainDatabase(`outbox-test-${++databases}`);

/** A server double: answers with the scripted responses in turn (or throws to play a network failure). */
function scriptedFetch(script: Array<Response | 'network' | ((init: RequestInit) => Response)>) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const fetch = async (url: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    const next = script.shift();
    if (next === undefined || next === 'network') throw new TypeError('Failed to fetch');
    return typeof next === 'function' ? next(init ?? {}) : next;
  };
  return { fetch: fetch as typeof globalThis.fetch, calls };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const change = (resource: string, path = `/things/${resource}`): Submission => ({
  kind: 'role.grant',
  summary: { resource },
  resource,
  request: { method: 'PUT', path, headers: { 'Accept-Language': 'fr' }, body: { type: 'json', value: { resource } } },
});

describe('the outbox', () => {
  it("sends a change only in the session of whoever made it: another person's waits for them, holding nothing back", async () => {
    const db = freshDb();
    let who: string | null = 'ana';
    const server = scriptedFetch(['network', json(200, { by: 'ben' }), json(200, { by: 'ana' })]);
    const outbox = createOutbox({ db, fetch: server.fetch, signedIn: async () => who });
    expect((await outbox.submit(change('shared'))).status).toBe('queued');
    // Ana signs out; Ben signs in on the same tablet and changes the same resource.
    who = 'ben';
    expect(await outbox.submit(change('shared'))).toEqual({ status: 'done', result: { by: 'ben' } });
    expect(server.calls).toHaveLength(2);
    const [waiting] = (await outbox.items()).filter((item) => item.status === 'queued');
    expect(waiting.owner).toBe('ana');
    who = null;
    await outbox.process();
    expect(server.calls).toHaveLength(2);
    who = 'ana';
    await outbox.process();
    expect(server.calls).toHaveLength(3);
    expect(await outbox.pendingCount()).toBe(0);
  });

  it('asks who is signed in before each change: one signing in during a long send gets none of the last one’s', async () => {
    const db = freshDb();
    let who: string | null = 'ana';
    const server = scriptedFetch([
      'network',
      (init) => {
        // Ana signs out while her first change is sent; Ben signs in before the pass reaches her second.
        who = 'ben';
        return json(200, { owner: (init.headers as Record<string, string>)['X-Terrain-Owner'] });
      },
    ]);
    const outbox = createOutbox({ db, fetch: server.fetch, signedIn: async () => who });
    await outbox.submit(change('first'));
    await outbox.submit(change('second'));
    await outbox.process({ despiteHold: true });
    expect(server.calls).toHaveLength(2);
    const items = await outbox.items();
    expect(items.map((item) => [item.resource, item.status])).toEqual([
      ['first', 'done'],
      ['second', 'queued'],
    ]);
    expect(items[0].result).toEqual({ owner: 'ana' });
  });

  it('leaves a change the server finds in another person’s session queued for its owner, untouched, holding nothing', async () => {
    const db = freshDb();
    const server = scriptedFetch([
      json(409, { code: 'CHANGE_OF_ANOTHER_USER', message: 'CHANGE_OF_ANOTHER_USER', params: {} }),
      json(200, { ok: true }),
    ]);
    const outbox = createOutbox({ db, fetch: server.fetch, signedIn: async () => 'zoé.l' });
    expect((await outbox.submit(change('mine'))).status).toBe('queued');
    expect((server.calls[0].init.headers as Record<string, string>)['X-Terrain-Owner']).toBe('zo%C3%A9.l');
    const [waiting] = await outbox.items();
    expect(waiting).toMatchObject({ status: 'queued', attempts: 0, owner: 'zoé.l' });
    await outbox.process();
    expect(server.calls).toHaveLength(2);
    expect(await outbox.pendingCount()).toBe(0);
  });

  it('lets the other changes go when one cannot be sent while the server answers, and retries it later', async () => {
    const db = freshDb();
    let answering = true;
    const server = scriptedFetch([
      'network',
      json(200, { second: true }),
      'network',
      json(200, { big: true }),
      json(200, { third: true }),
    ]);
    const outbox = createOutbox({
      db,
      fetch: server.fetch,
      online: () => true,
      serverAnswers: async () => answering,
    });
    // A file the network path refuses (or the browser can no longer read): its send fails, the server answers.
    expect((await outbox.submit(change('big'))).status).toBe('queued');
    expect(await outbox.submit(change('second'))).toEqual({ status: 'done', result: { second: true } });
    const [big] = await outbox.items();
    expect(big).toMatchObject({ status: 'queued', attempts: 1, lastError: { code: 'NETWORK_ERROR' } });
    expect(big.nextAttemptAt).toBeGreaterThan(Date.now());
    expect(await readSendHold(db)).toBeUndefined();
    // When the server does not answer either, it is out of reach: everything waits, as before.
    await db.outbox.update(big.id!, { nextAttemptAt: 0 });
    answering = false;
    await outbox.submit(change('third'));
    expect(await readSendHold(db)).toBeDefined();
    expect(server.calls).toHaveLength(3);
    answering = true;
    await outbox.process({ liftHold: true });
    expect((await outbox.items()).map((item) => [item.resource, item.result])).toEqual([
      ['big', { big: true }],
      ['second', { second: true }],
      ['third', { third: true }],
    ]);
  });

  it('asks the person about a change whose file the browser can no longer read, instead of waiting for ever', async () => {
    const db = freshDb();
    let readable = true;
    const server = scriptedFetch(['network', 'network']);
    const outbox = createOutbox({
      db,
      fetch: server.fetch,
      online: () => true,
      serverAnswers: async () => true,
      fileReadable: async () => readable,
    });
    const upload: Submission = {
      ...change('deposit'),
      request: {
        method: 'POST',
        path: '/deposit',
        headers: {},
        body: { type: 'multipart', parts: [{ name: 'file', blob: new Blob(['a;b\n']), fileName: 'sites.csv' }] },
      },
    };
    // A file that is still there, on a network path that refuses it: it waits, backing off, as before.
    expect((await outbox.submit(upload)).status).toBe('queued');
    const [waiting] = await outbox.items();
    expect(waiting).toMatchObject({ status: 'queued', lastError: { code: 'NETWORK_ERROR' } });
    // The browser lost the file kept with it: no send can ever carry it.
    readable = false;
    await db.outbox.update(waiting.id!, { nextAttemptAt: 0 });
    await outbox.process();
    expect((await outbox.items())[0]).toMatchObject({
      status: 'needs-attention',
      lastError: { status: 0, code: 'FILE_UNREADABLE', params: { fileName: 'sites.csv' } },
    });
  });

  it('sends changes kept before owners were recorded in any session', async () => {
    const db = freshDb();
    await db.outbox.add({
      idempotencyKey: 'k',
      kind: 'role.grant',
      summary: {},
      resource: 'old',
      request: change('old').request,
      streamed: false,
      createdAt: 0,
      attempts: 0,
      nextAttemptAt: 0,
      status: 'queued',
      size: 1,
    });
    const server = scriptedFetch([json(200, {})]);
    await createOutbox({ db, fetch: server.fetch, signedIn: async () => 'ben' }).process();
    expect(server.calls).toHaveLength(1);
  });

  it('sends at once when the server answers, with an idempotency key', async () => {
    const server = scriptedFetch([json(200, { ok: true })]);
    const outbox = createOutbox({ db: freshDb(), fetch: server.fetch });
    expect(await outbox.submit(change('a'))).toEqual({ status: 'done', result: { ok: true } });
    const headers = server.calls[0].init.headers as Record<string, string>;
    expect(headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(headers['Accept-Language']).toBe('fr');
    expect(await outbox.pendingCount()).toBe(0);
  });

  it('stamps each change with the build of Terrain that queued it', async () => {
    const outbox = createOutbox({ db: freshDb(), fetch: scriptedFetch(['network']).fetch });
    await outbox.submit(change('a'));
    expect((await outbox.items())[0].build).toBe(RUNNING_BUILD);
  });

  it('keeps a change queued when offline and resends it with the same key', async () => {
    const db = freshDb();
    const server = scriptedFetch(['network', json(200, {})]);
    const outbox = createOutbox({ db, fetch: server.fetch });
    const outcome = await outbox.submit(change('a'));
    expect(outcome.status).toBe('queued');
    expect(await outbox.pendingCount()).toBe(1);
    await outbox.resume();
    expect(await outbox.pendingCount()).toBe(0);
    const keys = server.calls.map((c) => (c.init.headers as Record<string, string>)['Idempotency-Key']);
    expect(keys[0]).toBe(keys[1]);
  });

  it('tells once per change kept on the device, so that the page asks the browser to keep its storage', async () => {
    let told = 0;
    const outbox = createOutbox({
      db: freshDb(),
      fetch: scriptedFetch(['network', 'network']).fetch,
      onQueued: () => (told += 1),
    });
    await outbox.submit(change('a'));
    expect(told).toBe(1);
    await outbox.submit(change('b'));
    expect(told).toBe(2);
  });

  it('tells the page when a change it sends meets an expired session, and only then', async () => {
    const db = freshDb();
    const lost: string[] = [];
    const server = scriptedFetch([json(401, { code: 'NOT_AUTHENTICATED', params: {} })]);
    const outbox = createOutbox({ db, fetch: server.fetch, onSignedOut: (path) => lost.push(path) });
    expect((await outbox.submit(change('a'))).status).toBe('queued');
    expect(lost).toEqual(['/things/a']);
  });

  it('a full device says so at once and keeps nothing: the form still has what was typed', async () => {
    const db = freshDb();
    const server = scriptedFetch([]);
    const outbox = createOutbox({ db, fetch: server.fetch });
    db.outbox.hook('creating', () => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    });
    expect(await outbox.submit(change('big'))).toEqual({
      status: 'needs-attention',
      error: { status: 0, code: 'DEVICE_FULL', params: {} },
    });
    expect(await db.outbox.count()).toBe(0);
    expect(server.calls).toHaveLength(0);
  });

  it('runs what must not cut a send short (a reload into a new version) once the send under way has ended', async () => {
    const db = freshDb();
    const order: string[] = [];
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    let started!: () => void;
    const sending = new Promise<void>((resolve) => (started = resolve));
    const outbox = createOutbox({
      db,
      fetch: (async () => {
        started();
        await answered;
        order.push('sent');
        return json(200, {});
      }) as typeof fetch,
    });
    const submitted = outbox.submit(change('deposit'));
    await sending;
    const reload = outbox.betweenSends(async () => void order.push('reloaded'));
    answer();
    await Promise.all([submitted, reload]);
    expect(order).toEqual(['sent', 'reloaded']);
  });

  it('says so at once when the device cannot keep a change for another reason, keeping nothing', async () => {
    const db = freshDb();
    const server = scriptedFetch([]);
    const outbox = createOutbox({ db, fetch: server.fetch });
    db.outbox.hook('creating', () => {
      throw new DOMException('Error preparing Blob/File data to be stored in object store', 'UnknownError');
    });
    expect(await outbox.submit(change('file'))).toEqual({
      status: 'needs-attention',
      error: { status: 0, code: 'DEVICE_STORAGE_FAILED', params: {} },
    });
    expect(await db.outbox.count()).toBe(0);
    expect(server.calls).toHaveLength(0);
  });

  it('survives closing and reopening the database, Blob bodies included', async () => {
    const name = `outbox-reopen-${Date.now()}`;
    const first = createOutbox({ db: new TerrainDatabase(name), fetch: scriptedFetch(['network']).fetch });
    await first.submit({
      ...change('file'),
      request: {
        method: 'POST',
        path: '/upload',
        headers: {},
        body: {
          type: 'multipart',
          parts: [
            { name: 'comment', value: 'hello' },
            { name: 'file', blob: new Blob(['a;b\n1;2\n']), fileName: 'data.csv' },
          ],
        },
      },
    });
    const seen: string[] = [];
    const server = scriptedFetch([
      (init) => {
        const form = init.body as FormData;
        void (form.get('file') as File)
          .text()
          .then((t) => seen.push(`${form.get('comment')}|${(form.get('file') as File).name}|${t}`));
        return json(200, {});
      },
    ]);
    const reopened = createOutbox({ db: new TerrainDatabase(name), fetch: server.fetch });
    expect(await reopened.pendingCount()).toBe(1);
    await reopened.resume();
    await expect.poll(() => seen).toEqual(['hello|data.csv|a;b\n1;2\n']);
    expect(await reopened.pendingCount()).toBe(0);
  });

  it('takes a change a closed page left being sent for one that may have arrived, even when it cannot be sent again', async () => {
    const name = `outbox-reload-${Date.now()}`;
    const first = createOutbox({ db: new TerrainDatabase(name), fetch: scriptedFetch([]).fetch, online: () => false });
    await first.submit(change('deposit'));
    expect((await first.items())[0].mayHaveArrived).toBeFalsy();
    // The page reloaded (an update, say) while the server was applying it: the change is left being sent.
    const db = new TerrainDatabase(name);
    await db.outbox.toCollection().modify({ status: 'sending' });
    const reopened = createOutbox({ db, fetch: scriptedFetch([]).fetch, online: () => false });
    await reopened.process({ despiteHold: true });
    expect((await reopened.items()).map((item) => [item.status, item.mayHaveArrived])).toEqual([['queued', true]]);
  });

  it('holds later changes of a resource behind a refused one, but not other resources', async () => {
    const db = freshDb();
    const outbox = createOutbox({ db, fetch: scriptedFetch(['network']).fetch });
    await outbox.submit(change('a', '/a/1'));
    await outbox.submit(change('a', '/a/2'));
    await outbox.submit(change('b', '/b/1'));
    const server = scriptedFetch([json(403, { code: 'NO_RIGHT', params: {} }), json(200, {})]);
    const online = createOutbox({ db, fetch: server.fetch });
    await online.resume();
    expect(server.calls.map((c) => c.url)).toEqual(['/api/v1/a/1', '/api/v1/b/1']);
    const items = await online.items();
    expect(items.map((i) => [i.request.path, i.status])).toEqual([
      ['/a/1', 'needs-attention'],
      ['/a/2', 'queued'],
      ['/b/1', 'done'],
    ]);
    expect(items[0].lastError).toEqual({ status: 403, code: 'NO_RIGHT', params: {} });
  });

  it('retries a refused change with a new key, and discards on request', async () => {
    const db = freshDb();
    const server = scriptedFetch([json(422, { code: 'BAD', params: {} }), json(200, { done: 1 }), json(200, {})]);
    const outbox = createOutbox({ db, fetch: server.fetch });
    const refused = await outbox.submit(change('a', '/a/1'), { keepOnRefusal: true });
    expect(refused.status).toBe('needs-attention');
    const [item] = await outbox.items();
    await outbox.retry(item.id!);
    const keys = server.calls.map((c) => (c.init.headers as Record<string, string>)['Idempotency-Key']);
    expect(keys[0]).not.toBe(keys[1]);
    expect((await outbox.items())[0].status).toBe('done');
    const other = createOutbox({ db, fetch: scriptedFetch([json(409, { code: 'CONFLICT', params: {} })]).fetch });
    await other.submit(change('z'), { keepOnRefusal: true });
    const attention = (await other.items()).find((i) => i.status === 'needs-attention')!;
    await other.discard(attention.id!);
    expect((await other.items()).some((i) => i.id === attention.id)).toBe(false);
  });

  it('keeps the key of a refused change a second Retry finds on its way: its first send may have been applied', async () => {
    const db = freshDb();
    const keys: string[] = [];
    let sendStarted!: () => void;
    const started = new Promise<void>((resolve) => (sendStarted = resolve));
    let loseAnswer!: () => void;
    const answerLost = new Promise<void>((resolve) => (loseAnswer = resolve));
    const fetch = (async (_url: RequestInfo | URL, init?: RequestInit) => {
      keys.push((init?.headers as Record<string, string>)['Idempotency-Key']);
      if (keys.length === 1) return json(422, { code: 'BAD', params: {} });
      if (keys.length === 2) {
        // The retried change reaches the server, which applies it; its answer never comes back.
        sendStarted();
        await answerLost;
        throw new TypeError('Failed to fetch');
      }
      return json(200, { applied: true });
    }) as typeof globalThis.fetch;
    const outbox = createOutbox({ db, fetch });
    await outbox.submit(change('a', '/a/1'), { keepOnRefusal: true });
    const [item] = await outbox.items();
    const first = outbox.retry(item.id!);
    await started;
    // A double click, or the same card in another tab, while the first retry is being sent.
    const second = outbox.retry(item.id!);
    loseAnswer();
    await Promise.all([first, second]);
    await outbox.resume();
    expect(keys).toHaveLength(3);
    expect(keys[2]).toBe(keys[1]);
    expect((await outbox.items())[0].status).toBe('done');
  });

  it('refuses an edit of a change no longer refused, and keeps that change: it may be on its way or applied', async () => {
    const db = freshDb();
    const server = scriptedFetch([json(422, { code: 'BAD', params: {} }), 'network']);
    const outbox = createOutbox({ db, fetch: server.fetch });
    await outbox.submit(change('a', '/a/1'), { keepOnRefusal: true });
    const [refused] = await outbox.items();
    // Retried from the pending changes while its form, reopened to edit it, was still open: sent, answer lost.
    await outbox.retry(refused.id!);
    const edited = await outbox.submit(change('a', '/a/1'), { replaces: refused.id });
    expect(edited).toEqual({
      status: 'needs-attention',
      error: { status: 0, code: 'CHANGE_SENT_MEANWHILE', params: {} },
    });
    const items = await outbox.items();
    expect(items.map((item) => [item.id, item.status, item.mayHaveArrived])).toEqual([[refused.id, 'queued', true]]);
    expect(server.calls).toHaveLength(2);
    // Discarding it from a dialog opened while it was refused does not drop it either.
    expect(await outbox.discard(refused.id!)).toBe(false);
    expect(await outbox.items()).toHaveLength(1);
  });

  it('replaces a refused change with its edit in one step', async () => {
    const db = freshDb();
    const server = scriptedFetch([json(422, { code: 'BAD', params: {} }), json(200, { edited: true })]);
    const outbox = createOutbox({ db, fetch: server.fetch });
    await outbox.submit(change('a', '/a/1'), { keepOnRefusal: true });
    const [refused] = await outbox.items();
    expect(await outbox.submit(change('a', '/a/1'), { replaces: refused.id })).toEqual({
      status: 'done',
      result: { edited: true },
    });
    expect(await outbox.items()).toHaveLength(1);
  });

  it('sends an edited change in the place of the refused one, before the changes made after it', async () => {
    const db = freshDb();
    const server = scriptedFetch([json(422, { code: 'BAD', params: {} }), json(200, {}), json(200, {})]);
    const outbox = createOutbox({ db, fetch: server.fetch });
    await outbox.submit(change('table', '/table/load-1'), { keepOnRefusal: true });
    const [refused] = await outbox.items();
    // Made after the refused load, of the same table: it waits behind it.
    expect((await outbox.submit(change('table', '/table/delete-rows'))).status).toBe('queued');
    await outbox.submit(change('table', '/table/load-1-corrected'), { replaces: refused.id });
    expect(server.calls.map((call) => call.url)).toEqual([
      '/api/v1/table/load-1',
      '/api/v1/table/load-1-corrected',
      '/api/v1/table/delete-rows',
    ]);
  });

  it('never sends a change cancelled while a pass is sending another, and refuses to cancel the one being sent', async () => {
    const fetched: string[] = [];
    let release!: () => void;
    const answered = new Promise<void>((resolve) => (release = resolve));
    let sendingStarted!: () => void;
    const started = new Promise<void>((resolve) => (sendingStarted = resolve));
    const fetch = async (url: RequestInfo | URL) => {
      fetched.push(String(url));
      sendingStarted();
      await answered;
      return json(200, {});
    };
    const outbox = createOutbox({ db: freshDb(), fetch: fetch as typeof globalThis.fetch });
    const first = await outbox.enqueue(change('a'));
    const second = await outbox.enqueue(change('b'));
    const pass = outbox.process();
    await started;
    expect(await outbox.cancel(first)).toBe(false);
    expect(await outbox.cancel(second)).toBe(true);
    release();
    await pass;
    expect(fetched).toEqual(['/api/v1/things/a']);
    expect((await outbox.items()).map((item) => item.id)).toEqual([first]);
    expect(await outbox.pendingCount()).toBe(0);
  });

  it('never takes a proxy’s page of HTML for a reason, and counts a gateway’s failure as perhaps applied', async () => {
    const page = (status: number, title: string) =>
      new Response(`<html><head><title>${title}</title></head><body><center>nginx</center></body></html>`, {
        status,
        headers: { 'Content-Type': 'text/html' },
      });
    const db = freshDb();
    const server = scriptedFetch([
      page(502, '502 Bad Gateway'),
      page(413, '413 Request Entity Too Large'),
      json(503, { code: 'DATABASE_UNAVAILABLE', params: {} }),
    ]);
    const outbox = createOutbox({ db, fetch: server.fetch });
    expect((await outbox.submit(change('a'))).status).toBe('queued');
    // An instance restarting behind the proxy: sent again later, its reason the server's generic one.
    expect((await outbox.items())[0].lastError).toEqual({ status: 502, code: '', params: {} });
    // The proxy passed it on before the instance broke off: it may be applied, as the cancel dialog must say.
    expect((await outbox.items())[0].mayHaveArrived).toBe(true);
    // A body larger than the proxy takes: refused there, for a reason the pending changes can name.
    expect(await outbox.submit(change('b'), { keepOnRefusal: true })).toEqual({
      status: 'needs-attention',
      error: { status: 413, code: 'PAYLOAD_TOO_LARGE', params: {} },
    });
    // The server's own failure applied nothing: cancelling it is safe.
    expect((await outbox.submit(change('c'))).status).toBe('queued');
    expect((await outbox.items()).find((item) => item.resource === 'c')?.mayHaveArrived).toBeFalsy();
  });

  it('waits for the network behind a captive portal’s page, whatever its status, instead of calling it a refusal', async () => {
    const portal = (status: number) =>
      new Response('<html><body>Connectez-vous au Wi-Fi du refuge</body></html>', {
        status,
        headers: { 'Content-Type': 'text/html; charset=utf-8' },
      });
    const db = freshDb();
    const server = scriptedFetch([portal(403), portal(407), portal(401), json(200, { ok: true })]);
    const outbox = createOutbox({ db, fetch: server.fetch });
    await outbox.submit(change('a'), { keepOnRefusal: true });
    for (let sent = 1; sent <= 3; sent++) {
      expect(await outbox.items()).toMatchObject([
        { status: 'queued', lastError: { code: 'NETWORK_ERROR' }, mayHaveArrived: false },
      ]);
      await outbox.resume();
    }
    expect((await outbox.items())[0]).toMatchObject({ status: 'done', result: { ok: true } });
    expect(server.calls).toHaveLength(4);
  });

  it('sends a change an earlier sending may have applied again with its key when a proxy stopped it, not a new one', async () => {
    const page = (status: number) =>
      new Response('<html><body>nginx</body></html>', { status, headers: { 'Content-Type': 'text/html' } });
    const keys: string[] = [];
    const answers = [page(502), page(413), json(201, { applied: 'once' }), page(502), json(422, { code: 'BAD' })];
    const fetch = (async (_url: RequestInfo | URL, init?: RequestInit) => {
      keys.push((init?.headers as Record<string, string>)['Idempotency-Key']);
      return answers.shift() ?? json(201, { applied: 'again' });
    }) as typeof globalThis.fetch;
    let clock = 0;
    const outbox = createOutbox({ db: freshDb(), fetch, now: () => clock });
    await outbox.submit(change('a'), { keepOnRefusal: true });
    // The gateway failed after passing it on; then the proxy refused the resend: the first may have been applied.
    clock += 3_600_000;
    await outbox.resume();
    let [item] = await outbox.items();
    expect([item.status, item.mayHaveArrived]).toEqual(['needs-attention', true]);
    await outbox.retry(item.id!);
    expect(keys.slice(0, 3)).toEqual([keys[0], keys[0], keys[0]]);
    expect((await outbox.items())[0].status).toBe('done');
    // The server's own refusal of the key tells that nothing of it was applied: a retry is a new request.
    await outbox.submit(change('b'), { keepOnRefusal: true });
    clock += 3_600_000;
    await outbox.resume();
    [, item] = await outbox.items();
    expect([item.status, item.mayHaveArrived]).toEqual(['needs-attention', false]);
    await outbox.retry(item.id!);
    expect(keys[5]).not.toBe(keys[4]);
    expect(keys[4]).toBe(keys[3]);
  });

  it('gives a refusal back to the form without keeping the change', async () => {
    const outbox = createOutbox({
      db: freshDb(),
      fetch: scriptedFetch([json(403, { code: 'NO_RIGHT', params: { name: 'x' } })]).fetch,
    });
    expect(await outbox.submit(change('a'))).toEqual({
      status: 'needs-attention',
      error: { status: 403, code: 'NO_RIGHT', params: { name: 'x' } },
    });
    expect(await outbox.items()).toEqual([]);
  });

  it('backs off after server errors and waits until the change is due', async () => {
    let clock = 1_000_000;
    const server = scriptedFetch([json(503, { code: 'INTERNAL_ERROR', params: {} }), json(200, {})]);
    const outbox = createOutbox({ db: freshDb(), fetch: server.fetch, now: () => clock });
    expect((await outbox.submit(change('a'))).status).toBe('queued');
    const due = (await outbox.nextDueAt())!;
    expect(due).toBeGreaterThan(clock);
    await outbox.process();
    expect(server.calls).toHaveLength(1);
    clock = due;
    await outbox.process();
    expect(server.calls).toHaveLength(2);
    expect(await outbox.pendingCount()).toBe(0);
  });

  it('sends again an upload the server gave up waiting for (408), as it does after a server error', async () => {
    let clock = 1_000_000;
    const server = scriptedFetch([json(408, { code: 'UPLOAD_STALLED', params: { idleSeconds: 120 } }), json(201, {})]);
    const outbox = createOutbox({ db: freshDb(), fetch: server.fetch, now: () => clock });
    expect((await outbox.submit(change('a'))).status).toBe('queued');
    clock = (await outbox.nextDueAt())!;
    await outbox.process();
    expect(server.calls).toHaveLength(2);
    expect(await outbox.pendingCount()).toBe(0);
  });

  it('sends a streamed change again later when the server failed it (disk full, database away), not its content', async () => {
    const failed = (code: string) =>
      new Response(
        `${JSON.stringify({ type: 'error', errorType: 'UpdateFailed', result: { code, message: code, params: {} } })}\n`,
        { status: 200, headers: { 'Content-Type': 'application/x-ndjson' } },
      );
    const applied = new Response(`${JSON.stringify({ type: 'result', result: { id: 'x' } })}\n`, { status: 200 });
    let clock = 1_000_000;
    const server = scriptedFetch([failed('STORAGE_FULL'), failed('DATABASE_UNAVAILABLE'), applied]);
    const outbox = createOutbox({ db: freshDb(), fetch: server.fetch, now: () => clock });
    expect((await outbox.submit({ ...change('a'), streamed: true })).status).toBe('queued');
    expect((await outbox.items())[0]).toMatchObject({ status: 'queued', lastError: { code: 'STORAGE_FULL' } });
    for (const _ of [1, 2]) {
      clock = (await outbox.nextDueAt())!;
      await outbox.process();
    }
    expect(server.calls).toHaveLength(3);
    expect((await outbox.items())[0]).toMatchObject({ status: 'done', result: { id: 'x' } });
  });

  it('does not take a page of HTML answering in the API’s place (a captive portal) for the change applied', async () => {
    const portal = new Response('<html><body>Sign in to the Wi-Fi</body></html>', {
      status: 200,
      headers: { 'Content-Type': 'text/html; charset=utf-8' },
    });
    const server = scriptedFetch([portal]);
    const outbox = createOutbox({ db: freshDb(), fetch: server.fetch });
    expect((await outbox.submit(change('a'))).status).toBe('queued');
    expect((await outbox.items())[0]).toMatchObject({ status: 'queued', lastError: { code: 'NETWORK_ERROR' } });
  });

  it('keeps a deposit behind a refused update of its application’s configuration; other changes go on', async () => {
    const refused = json(422, { code: 'BAD_REQUEST', message: 'BAD_REQUEST', params: {} });
    const server = scriptedFetch([refused, json(201, { rights: true }), json(201, { other: true })]);
    const outbox = createOutbox({ db: freshDb(), fetch: server.fetch });
    // Refused in the background (not on the form that sent it): it stays, needing attention.
    await outbox.submit(change('application:alps'), { keepOnRefusal: true });
    await outbox.submit(change('dataset:alps/counts/{}'));
    await outbox.submit(change('rightsRequest:alps/1'));
    await outbox.submit(change('dataset:alpine/counts/{}'));
    expect(server.calls.map((call) => call.url)).toEqual([
      '/api/v1/things/application:alps',
      '/api/v1/things/rightsRequest:alps/1',
      '/api/v1/things/dataset:alpine/counts/{}',
    ]);
    expect((await outbox.items()).map((item) => [item.resource, item.status])).toEqual([
      ['application:alps', 'needs-attention'],
      ['dataset:alps/counts/{}', 'queued'],
      ['rightsRequest:alps/1', 'done'],
      ['dataset:alpine/counts/{}', 'done'],
    ]);
  });

  it('marks a change whose send may have reached the server without an answer, not one sent without a network', async () => {
    let online = false;
    const brokenAnswer = () =>
      new Response(
        new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"type":"progress","result":0.5}\n'));
            controller.error(new TypeError('network error'));
          },
        }),
        { status: 200, headers: { 'Content-Type': 'application/x-ndjson' } },
      );
    const replayed = new Response(`${JSON.stringify({ type: 'result', result: { ok: true } })}\n`, { status: 200 });
    const server = scriptedFetch(['network', brokenAnswer, replayed]);
    const outbox = createOutbox({ db: freshDb(), fetch: server.fetch, online: () => online });
    await outbox.submit({ ...change('a'), streamed: true });
    expect((await outbox.items())[0].mayHaveArrived).toBeFalsy();
    online = true;
    await outbox.process({ despiteHold: true });
    expect((await outbox.items())[0]).toMatchObject({ status: 'queued', mayHaveArrived: true });
    await outbox.process({ despiteHold: true });
    expect((await outbox.items())[0]).toMatchObject({ status: 'done', result: { ok: true } });
  });

  it('sends again, with its key, a change whose answer broke off, and keeps the answer the server kept', async () => {
    const cutAnswer = () =>
      new Response(
        new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"lineCount":'));
            controller.error(new TypeError('network error'));
          },
        }),
        { status: 201, headers: { 'Content-Type': 'application/json' } },
      );
    const server = scriptedFetch([cutAnswer, json(201, { lineCount: 12 })]);
    const outbox = createOutbox({ db: freshDb(), fetch: server.fetch, online: () => true });
    // Not "done" without its answer: the form would have nothing to tell (and read the lines loaded from nothing).
    expect((await outbox.submit(change('table'))).status).toBe('queued');
    expect((await outbox.items())[0]).toMatchObject({ status: 'queued', mayHaveArrived: true });
    await outbox.resume();
    expect((await outbox.items())[0]).toMatchObject({ status: 'done', result: { lineCount: 12 } });
    const keys = server.calls.map((call) => (call.init.headers as Record<string, string>)['Idempotency-Key']);
    expect(keys[1]).toBe(keys[0]);
  });

  it('keeps a change refused at once when the form that sent it has left the screen', async () => {
    const refusal = () => json(422, { code: 'BAD_REQUEST', message: 'BAD_REQUEST', params: {} });
    const server = scriptedFetch([refusal, refusal]);
    const outbox = createOutbox({ db: freshDb(), fetch: server.fetch });
    expect((await outbox.submit(change('shown'), { keepOnRefusal: () => false })).status).toBe('needs-attention');
    expect((await outbox.submit(change('left'), { keepOnRefusal: () => true })).status).toBe('needs-attention');
    expect((await outbox.items()).map((item) => [item.resource, item.status])).toEqual([['left', 'needs-attention']]);
  });

  it('waits out a server failure, but not one that comes back at every send: it then needs attention', async () => {
    let clock = 1_000_000;
    const internal = () => json(500, { code: 'INTERNAL_ERROR', message: 'INTERNAL_ERROR', params: {} });
    const server = scriptedFetch(Array.from({ length: 5 }, () => internal));
    const outbox = createOutbox({ db: freshDb(), fetch: server.fetch, now: () => clock });
    expect((await outbox.submit(change('a'))).status).toBe('queued');
    for (let sent = 1; sent < 5; sent += 1) {
      expect((await outbox.items())[0].status).toBe('queued');
      clock = (await outbox.nextDueAt())!;
      await outbox.process();
    }
    expect(server.calls).toHaveLength(5);
    expect((await outbox.items())[0]).toMatchObject({
      status: 'needs-attention',
      lastError: { code: 'INTERNAL_ERROR' },
    });
  });

  it('is due for nothing that only someone else or a refused change before it holds', async () => {
    const db = freshDb();
    let who: string | null = 'ana';
    const refused = json(422, { code: 'BAD_REQUEST', message: 'BAD_REQUEST', params: {} });
    const server = scriptedFetch([refused, 'network']);
    const outbox = createOutbox({ db, fetch: server.fetch, signedIn: async () => who, online: () => false });
    await outbox.submit(change('application:alps'), { keepOnRefusal: true });
    await outbox.submit(change('dataset:alps/counts/{}'));
    expect(server.calls).toHaveLength(1);
    // Ana's deposit waits behind her refused update: nothing is due for her; nor for Ben, whose session sends none.
    expect(await outbox.nextDueAt()).toBeUndefined();
    who = 'ben';
    expect(await outbox.nextDueAt()).toBeUndefined();
    await outbox.submit(change('user:ben'));
    expect(await outbox.nextDueAt()).toBeDefined();
  });

  it('is due when the first waiting change of a resource is, not sooner for the changes behind it', async () => {
    const clock = 1_000_000_000;
    const busy = json(503, { code: 'DATABASE_UNAVAILABLE', params: {} });
    const server = scriptedFetch([busy]);
    const outbox = createOutbox({
      db: freshDb(),
      fetch: server.fetch,
      now: () => clock,
      serverAnswers: async () => true,
    });
    await outbox.submit(change('application:alps'));
    const [first] = await outbox.items();
    expect(first.nextAttemptAt).toBeGreaterThan(clock);
    // A second update, and the application's data, wait behind the first: nothing is due before its wait ends.
    await outbox.enqueue(change('application:alps'));
    await outbox.enqueue(change('dataset:alps/counts/{}'));
    await outbox.enqueue(change('additionalFile:alps/photos'));
    expect(await outbox.nextDueAt()).toBe(first.nextAttemptAt);
    // Another application's change is due at once.
    await outbox.enqueue(change('application:ecrins'));
    expect(await outbox.nextDueAt()).toBeLessThanOrEqual(clock);
    expect(server.calls).toHaveLength(1);
  });

  it('sends a waiting change at once when the device’s clock was set back since its wait was set', async () => {
    let clock = 1_000_000_000;
    const server = scriptedFetch([json(503, { code: 'DATABASE_UNAVAILABLE', params: {} }), json(200, { ok: true })]);
    const outbox = createOutbox({ db: freshDb(), fetch: server.fetch, now: () => clock });
    expect((await outbox.submit(change('a'))).status).toBe('queued');
    // The tablet's clock was a day ahead and is put right.
    clock -= 24 * 3600 * 1000;
    expect(await outbox.nextDueAt()).toBeLessThanOrEqual(clock);
    await outbox.process();
    expect(await outbox.items()).toMatchObject([{ status: 'done', result: { ok: true } }]);
  });

  it('counts a change the server remembers as applied long ago (409 ALREADY_APPLIED) as applied', async () => {
    const server = scriptedFetch([json(409, { code: 'ALREADY_APPLIED', message: 'ALREADY_APPLIED', params: {} })]);
    const outbox = createOutbox({ db: freshDb(), fetch: server.fetch });
    expect(await outbox.submit(change('a'))).toEqual({ status: 'done', result: null });
  });

  it('reads a streamed answer: a result applies, problems refuse', async () => {
    const stream = (lines: object[]) =>
      new Response(lines.map((l) => JSON.stringify(l)).join('\n') + '\n', {
        status: 200,
        headers: { 'Content-Type': 'application/x-ndjson' },
      });
    const events: string[] = [];
    const server = scriptedFetch([
      stream([
        { type: 'progress', result: 0.5 },
        { type: 'result', result: { id: 'x' } },
      ]),
      stream([
        {
          type: 'error',
          errorType: 'ValidationError',
          result: { code: 'BAD_VERSION_PATTERN', message: 'badVersionPattern', params: {} },
        },
      ]),
    ]);
    const outbox = createOutbox({ db: freshDb(), fetch: server.fetch });
    expect(await outbox.submit({ ...change('a'), streamed: true }, { onEvent: (e) => events.push(e.type) })).toEqual({
      status: 'done',
      result: { id: 'x' },
    });
    expect(events).toEqual(['progress', 'result']);
    const refused = await outbox.submit({ ...change('b'), streamed: true });
    expect(refused.status === 'needs-attention' && refused.error.problems?.map((p) => p.code)).toEqual([
      'BAD_VERSION_PATTERN',
    ]);
  });

  it('stops at a lost session and keeps everything queued', async () => {
    const server = scriptedFetch([json(401, { code: 'NOT_AUTHENTICATED', params: {} })]);
    const outbox = createOutbox({ db: freshDb(), fetch: server.fetch });
    expect((await outbox.submit(change('a'))).status).toBe('queued');
    expect((await outbox.items())[0].lastError?.code).toBe('NOT_AUTHENTICATED');
  });
});

describe('sending while the server is out of reach', () => {
  /** The page's outbox and the service worker's, over one database, on one fake clock. */
  function pageAndWorker(fetch: typeof globalThis.fetch, online = () => true) {
    const db = freshDb();
    const clock = { now: 1_000_000 };
    const options = { db, fetch, now: () => clock.now, online };
    return { clock, page: createOutbox(options), worker: createOutbox(options) };
  }

  it('posts less than once per four seconds from page and worker together, and at once when the server answers', async () => {
    let reachable = false;
    const posts: number[] = [];
    const { clock, page, worker } = pageAndWorker((async () => {
      posts.push(clock.now);
      if (!reachable) throw new TypeError('Failed to fetch');
      return json(200, {});
    }) as typeof globalThis.fetch);
    await page.submit(change('a'));
    await page.submit(change('b'));
    // Every trigger at once, four times a second for 20 s: the page's timer and visibility, the worker's syncs.
    const start = clock.now;
    while (clock.now < start + 20_000) {
      clock.now += 250;
      await page.process();
      await worker.process();
    }
    // 2 s, 4 s, 8 s… with ±20 % jitter, and the two changes of the user (each tried once when made).
    expect(posts.length).toBeLessThanOrEqual(20_000 / 4000);
    expect(await page.pendingCount()).toBe(2);

    reachable = true;
    const sentBefore = posts.length;
    await page.resume();
    expect(posts.length).toBe(sentBefore + 2);
    expect(await worker.pendingCount()).toBe(0);
  });

  it('tries a change the user makes at once despite the hold; an answer lifts it for the worker too', async () => {
    const server = scriptedFetch(['network', json(500, { code: 'INTERNAL_ERROR', params: {} }), json(200, {})]);
    const { page, worker } = pageAndWorker(server.fetch);
    await page.submit(change('a'));
    await worker.process();
    expect(server.calls).toHaveLength(1);
    // The pass of a new change sends the older one first: its 500 still means the server answered.
    await page.submit(change('b'));
    expect(server.calls.map((call) => call.url)).toEqual(['/api/v1/things/a', '/api/v1/things/a', '/api/v1/things/b']);
    const [held] = await worker.items();
    expect(held.nextAttemptAt).toBeGreaterThan(0);
    expect(await page.nextDueAt()).toBe(held.nextAttemptAt);
  });

  it('tries again as soon as the device has a network again when the failures were met without one', async () => {
    let online = false;
    const server = scriptedFetch(['network', json(200, {})]);
    const { page } = pageAndWorker(server.fetch, () => online);
    await page.submit(change('a'));
    await page.process();
    expect(server.calls).toHaveLength(1);
    online = true;
    await page.process();
    expect(server.calls).toHaveLength(2);
    expect(await page.pendingCount()).toBe(0);
  });

  it('holds sends after a lost session, with the same backoff, until the user signs in again', async () => {
    const server = scriptedFetch([json(401, { code: 'NOT_AUTHENTICATED', params: {} }), json(200, {})]);
    const { clock, page, worker } = pageAndWorker(server.fetch);
    await page.submit(change('a'));
    clock.now += 1000;
    await page.process();
    await worker.process();
    expect(server.calls).toHaveLength(1);
    await page.resume();
    expect(server.calls).toHaveLength(2);
    expect(await page.pendingCount()).toBe(0);
  });

  it('tells when the next pass is due: not before the hold ends', async () => {
    const { clock, page } = pageAndWorker(scriptedFetch(['network']).fetch);
    await page.submit(change('a'));
    const due = (await page.nextDueAt())!;
    expect(due - clock.now).toBeGreaterThanOrEqual(1600);
    expect(due - clock.now).toBeLessThanOrEqual(2400);
  });
});
