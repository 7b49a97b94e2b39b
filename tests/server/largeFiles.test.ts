/**
 * Stored files are kept in parts (fileParts.ts): a deposited version's written as its bytes arrive, never whole in
 * the server's memory. At a size of many parts: a deposit comes back byte for byte, through publication and
 * deletion; one refused at its last line, or whose bytes stop coming half-way, leaves no part behind. An additional
 * file, written in parts as it arrives whatever the order of its form, comes back byte for byte; replaced or deleted,
 * its parts go; refused (by its params, its size, a stalled network), it leaves none and the stored file unchanged.
 * A backup holding both is restored byte for byte, its files written in parts as they are read from the archive;
 * one of them tampered with refuses the whole restore and leaves no part.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { unzipSync, zipSync } from 'fflate';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPLICATION, VERSIONED_YAML, readingsCsv, sitesCsv, yearDataset } from '../bench/versionedData.ts';
import type { BundleManifest } from '../../src/domain/bundle/manifest.ts';
import { streamEvents } from './applicationFixtures.ts';
import {
  createApplication,
  csvForm,
  fetchBytes,
  q,
  startDataServer,
  uploadReference,
  waitForJob,
  type DataServer,
} from './dataFixtures.ts';

import { MAX_CSV_BYTES } from '../../server/services/references.ts';

const SITE = 3;
const YEAR = 2022;
/** About 5.6 MB: more of the parts a deposit is cut into than are read back by one statement. */
const ROWS = 150_000;
/** How long the server waits for an upload's next bytes here. */
const IDLE_MS = 3_000;
/** How long a loaded machine may take to write or remove the parts: a bound for waits, not a figure the tests time. */
const SETTLE_MS = 30_000;

/** The application with a type of additional files whose form has one free text. */
const WITH_NOTES_YAML = `${VERSIONED_YAML}OA_additionalFiles:
  notes:
    OA_i18n:
      OA_title: {fr: Notes, en: Notes}
    OA_formFields:
      about:
        OA_i18n:
          OA_title: {fr: Sujet, en: About}
`;

/** The largest additional file here: a file a little larger than it is refused. */
const ADDITIONAL_FILE_MAX_BYTES = 16 * 1024 * 1024;
/** The largest backup a restore takes here: the first backup below fits, the second does not. */
const BUNDLE_MAX_BYTES = 20 * 1024 * 1024;

let data: DataServer;
const db = () => data.server.server.ctx.db;

const partsCount = async () =>
  (await sql<{ n: number }>`select count(*)::int as n from file_parts`.execute(db())).rows[0]!.n;
const rowsCount = async () =>
  (await sql<{ n: number }>`select count(*)::int as n from data_rows`.execute(db())).rows[0]!.n;
const filesCount = async () =>
  (await sql<{ n: number }>`select count(*)::int as n from deposit_files`.execute(db())).rows[0]!.n;

/** The status and text of the server's answer to `request`. */
function answerOf(request: http.ClientRequest): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request.on('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (piece: string) => (body += piece));
      response.on('end', () => resolve({ status: response.statusCode!, body }));
    });
    request.on('error', reject);
  });
}

/**
 * Sends a multipart body as a browser does (its whole length announced), but only `head` and half of `file` (or all
 * of it and `after`) before the network goes quiet; waits for parts to be written (more than `partsBefore`) while
 * the server still waits for the rest, then answers the server's answer.
 */
async function stalledHalfWay(
  path: string,
  boundary: string,
  head: string,
  file: string,
  partsBefore: number,
  after?: string,
) {
  const tail = `${after ?? ''}\r\n--${boundary}--\r\n`;
  const request = http.request(`${data.server.url}/api/v1${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${data.token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': Buffer.byteLength(head + file + tail),
    },
  });
  const answered = answerOf(request);
  request.write(head + (after === undefined ? file.slice(0, file.length / 2) : file + after));
  try {
    // Parts are written while the bytes come, before the server gives up waiting for the rest (at least IDLE_MS
    // after they stopped): seen within that window however slowly a loaded machine writes them.
    await expect.poll(partsCount, { timeout: SETTLE_MS, interval: 20 }).toBeGreaterThan(partsBefore);
    return await answered;
  } finally {
    request.destroy();
  }
}

/**
 * Starts a form declaring `declared` bytes (Content-Length), sends its first part's head and a little of its file,
 * and answers the server's answer: one that waited for the rest would answer only after IDLE_MS (408).
 */
async function declaredTooLarge(path: string, declared: number) {
  const boundary = '----terrain-declared-too-large';
  const request = http.request(`${data.server.url}/api/v1${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${data.token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': declared,
    },
  });
  const answered = answerOf(request);
  request.write(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="large.csv"\r\nContent-Type: text/csv\r\n\r\n${'x'.repeat(64 * 1024)}`,
  );
  try {
    return await answered;
  } finally {
    request.destroy();
  }
}

/** A form declaring 8 MB more than `limit` to `path` is refused with 413 before its file is read: no part written. */
async function refusedBeforeRead(path: string, limit: number) {
  const answer = await declaredTooLarge(path, limit + 8 * 1024 * 1024);
  expect([answer.status, JSON.parse(answer.body).code], answer.body).toEqual([413, 'FILE_TOO_LARGE']);
  expect(await partsCount()).toBe(0);
}

beforeAll(async () => {
  data = await startDataServer({
    uploadIdleMs: IDLE_MS,
    additionalFileMaxBytes: ADDITIONAL_FILE_MAX_BYTES,
    bundleMaxBytes: BUNDLE_MAX_BYTES,
  });
  await createApplication(data.admin, APPLICATION, WITH_NOTES_YAML);
  expect((await uploadReference(data.admin, APPLICATION, 'sites', 'sites.csv', sitesCsv())).status).toBe(201);
}, 120_000);
afterAll(() => data?.server.close());

describe('a large deposited version', () => {
  it('comes back byte for byte, is published from its parts, and its parts go with it', async () => {
    const { text, rows } = readingsCsv(ROWS, SITE, YEAR);
    const bytes = new TextEncoder().encode(text);
    const deposited = await data.admin.post(`/applications/${APPLICATION}/data/readings`, {
      body: csvForm('readings.csv', bytes, yearDataset(SITE, YEAR)),
    });
    expect(deposited.status, deposited.text).toBe(201);
    const fileId = deposited.body.fileId as string;
    expect(await partsCount()).toBe(Math.ceil(bytes.byteLength / (1024 * 1024)));

    const kept = await fetchBytes(data, `/applications/${APPLICATION}/file/${fileId}`);
    expect(kept.status).toBe(200);
    expect(Buffer.from(kept.bytes).equals(Buffer.from(bytes))).toBe(true);

    const published = await data.admin.post(`/applications/${APPLICATION}/data/readings`, {
      json: { fileid: fileId, topublish: true },
    });
    expect(published.status, published.text).toBe(202);
    await waitForJob(data.admin, APPLICATION, fileId);
    const listed = await data.admin.get(`/applications/${APPLICATION}/data/readings/json${q({ offset: 0, limit: 1 })}`);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.totalRows).toBe(rows);

    const removed = await data.admin.delete(`/applications/${APPLICATION}/file/${fileId}`);
    expect(removed.status, removed.text).toBeLessThan(300);
    expect(await partsCount()).toBe(0);
  }, 180_000);

  it('declaring a size far over the limit is refused at once, before its bytes are read', async () => {
    await refusedBeforeRead(`/applications/${APPLICATION}/data/readings`, MAX_CSV_BYTES);
  });

  it('refused at its last line leaves no part behind', async () => {
    const { text } = readingsCsv(ROWS, SITE, YEAR);
    const outside = `${text}site_003;s000;01/01/${YEAR + 1};00:00;1;1\n`;
    const files = await filesCount();
    const answer = await data.admin.post(`/applications/${APPLICATION}/data/readings`, {
      body: csvForm('outside.csv', outside, yearDataset(SITE, YEAR)),
    });
    expect(answer.status, answer.text).toBe(400);
    expect(await filesCount()).toBe(files);
    expect(await partsCount()).toBe(0);
  }, 180_000);

  it('whose bytes stop coming half-way leaves no part behind', async () => {
    const { text } = readingsCsv(ROWS, SITE, YEAR);
    const boundary = '----terrain-half-deposit';
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="params"\r\n\r\n${JSON.stringify(yearDataset(SITE, YEAR))}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="half.csv"\r\nContent-Type: text/csv\r\n\r\n`;
    const answer = await stalledHalfWay(`/applications/${APPLICATION}/data/readings`, boundary, head, text, 0);
    expect([answer.status, JSON.parse(answer.body).code], answer.body).toEqual([408, 'UPLOAD_STALLED']);
    await expect
      .poll(partsCount, { message: 'the parts written before the bytes stopped are removed', timeout: SETTLE_MS })
      .toBe(0);
  }, 120_000);
});

describe('a large additional file', () => {
  const params = (id: string | null, fields: Record<string, string> = {}) =>
    JSON.stringify({ id, fileName: 'survey.bin', comment: 'field survey', fields });
  const fileBlob = (bytes: Uint8Array) => new Blob([new Uint8Array(bytes)], { type: 'application/octet-stream' });
  const upload = (bytes: Uint8Array, id: string | null) => {
    const form = new FormData();
    form.append('params', params(id));
    form.append('file', fileBlob(bytes), 'survey.bin');
    return data.admin.post(`/applications/${APPLICATION}/additionalFiles/notes`, { body: form });
  };
  /** The file before its params, as nothing in the form's format forbids. */
  const uploadFileFirst = (bytes: Uint8Array, id: string | null, fields: Record<string, string> = {}) => {
    const form = new FormData();
    form.append('file', fileBlob(bytes), 'survey.bin');
    form.append('params', params(id, fields));
    return data.admin.post(`/applications/${APPLICATION}/additionalFiles/notes`, { body: form });
  };
  const remove = (id: string) =>
    data.admin.delete(
      `/applications/${APPLICATION}/additionalFiles?params=${encodeURIComponent(JSON.stringify({ uuids: [id] }))}`,
    );
  const content = (id: string) => fetchBytes(data, `/applications/${APPLICATION}/additionalFiles/notes/${id}/content`);

  it('comes back byte for byte; replaced, then deleted, its parts go', async () => {
    const first = randomBytes(12 * 1024 * 1024 + 3);
    const created = await upload(first, null);
    expect(created.status, created.text).toBeLessThan(300);
    const id = created.body.id as string;
    expect(await partsCount()).toBe(13);
    expect(Buffer.from((await content(id)).bytes).equals(first)).toBe(true);

    const second = randomBytes(5 * 1024 * 1024);
    const replaced = await upload(second, id);
    expect(replaced.status, replaced.text).toBeLessThan(300);
    expect(await partsCount()).toBe(5);
    expect(Buffer.from((await content(id)).bytes).equals(second)).toBe(true);

    const removed = await remove(id);
    expect(removed.status, removed.text).toBeLessThan(300);
    expect(await partsCount()).toBe(0);
  }, 120_000);

  it('sent before its params, is saved once they are read', async () => {
    const bytes = randomBytes(ADDITIONAL_FILE_MAX_BYTES);
    const created = await uploadFileFirst(bytes, null);
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    expect(await partsCount()).toBe(16);
    expect(Buffer.from((await content(id)).bytes).equals(bytes)).toBe(true);
    expect((await remove(id)).status).toBeLessThan(300);
  }, 120_000);

  it('refused by the params that follow it, leaves no part behind and the stored file as it was', async () => {
    const stored = randomBytes(3 * 1024 * 1024);
    const created = await upload(stored, null);
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;

    const unknownField = await uploadFileFirst(randomBytes(9 * 1024 * 1024), id, { nowhere: 'x' });
    expect([unknownField.status, unknownField.body.code], unknownField.text).toEqual([
      400,
      'UNKNOWN_ADDITIONAL_FILE_FIELD',
    ]);
    const sameNameNew = await uploadFileFirst(randomBytes(2 * 1024 * 1024), null);
    expect([sameNameNew.status, sameNameNew.body.code], sameNameNew.text).toEqual([409, 'ADDITIONAL_FILE_EXISTS']);
    expect(await partsCount()).toBe(3);
    expect(Buffer.from((await content(id)).bytes).equals(stored)).toBe(true);
    expect((await remove(id)).status).toBeLessThan(300);
  }, 120_000);

  it('larger than the limit is refused with 413 and leaves no part behind', async () => {
    const tooLarge = await uploadFileFirst(randomBytes(ADDITIONAL_FILE_MAX_BYTES + 1), null);
    expect([tooLarge.status, tooLarge.body.code], tooLarge.text).toEqual([413, 'FILE_TOO_LARGE']);
    expect(await partsCount()).toBe(0);
  }, 120_000);

  it('declaring a size far over the limit is refused at once, before its bytes are read', async () => {
    await refusedBeforeRead(`/applications/${APPLICATION}/additionalFiles/notes`, ADDITIONAL_FILE_MAX_BYTES);
  }, 120_000);

  it('whose bytes stop coming half-way leaves no part behind', async () => {
    const boundary = '----terrain-half-file';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="half.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    const answer = await stalledHalfWay(
      `/applications/${APPLICATION}/additionalFiles/notes`,
      boundary,
      head,
      'x'.repeat(8 * 1024 * 1024),
      0,
    );
    expect([answer.status, JSON.parse(answer.body).code], answer.body).toEqual([408, 'UPLOAD_STALLED']);
    await expect
      .poll(partsCount, { message: 'the parts written before the bytes stopped are removed', timeout: SETTLE_MS })
      .toBe(0);
  }, 120_000);

  it('whose form stops coming after the file leaves no part behind', async () => {
    const boundary = '----terrain-quiet-after-file';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="whole.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    const answer = await stalledHalfWay(
      `/applications/${APPLICATION}/additionalFiles/notes`,
      boundary,
      head,
      'x'.repeat(3 * 1024 * 1024),
      0,
      `\r\n--${boundary}\r\nContent-Disposition: form-data; name="params"\r\n\r\n`,
    );
    expect([answer.status, JSON.parse(answer.body).code], answer.body).toEqual([408, 'UPLOAD_STALLED']);
    await expect.poll(partsCount, { message: 'the parts of the whole file are removed', timeout: SETTLE_MS }).toBe(0);
  }, 120_000);
});

describe('a backup holding a large version and a large additional file', () => {
  const RESTORED = 'restored_stations';
  const restore = (bytes: Uint8Array) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), 'backup.zip');
    return data.admin.post(`/applications/${RESTORED}/upload-bundle`, { body: form });
  };

  it('is restored byte for byte; one file tampered with refuses it all and leaves no part', async () => {
    const { text } = readingsCsv(ROWS, SITE, YEAR);
    const version = new TextEncoder().encode(text);
    const deposited = await data.admin.post(`/applications/${APPLICATION}/data/readings`, {
      body: csvForm('readings.csv', version, yearDataset(SITE, YEAR)),
    });
    expect(deposited.status, deposited.text).toBe(201);
    const notes = randomBytes(12 * 1024 * 1024 + 5);
    const form = new FormData();
    form.append('params', JSON.stringify({ id: null, fileName: 'survey.bin', comment: 'field survey', fields: {} }));
    form.append('file', new Blob([new Uint8Array(notes)]), 'survey.bin');
    const added = await data.admin.post(`/applications/${APPLICATION}/additionalFiles/notes`, { body: form });
    expect(added.status, added.text).toBe(201);
    const partsBefore = await partsCount();
    const rowsBefore = await rowsCount();

    const backup = await fetchBytes(data, `/applications/${APPLICATION}/upload-bundle?withData=true`);
    expect(backup.status).toBe(200);
    const files = unzipSync(backup.bytes);
    const manifest: BundleManifest = JSON.parse(new TextDecoder().decode(files['manifest.json']));
    const listed = manifest.additionalFiles.find((file) => file.fileType === 'notes')!;
    const tampered = Uint8Array.from(files[listed.path]!, (byte, i) => (i === notes.byteLength - 1 ? byte ^ 1 : byte));
    const refused = await restore(zipSync({ ...files, [listed.path]: tampered }));
    expect(refused.status, refused.text).toBe(200);
    expect(
      streamEvents(refused.text)
        .filter((event) => event.type === 'error')
        .map((event) => event.result),
    ).toEqual([
      expect.objectContaining({ params: expect.objectContaining({ reason: 'checksumMismatch', entry: listed.path }) }),
    ]);
    expect(await partsCount()).toBe(partsBefore);
    expect(await rowsCount(), 'the rows of its references, written before the file, are gone').toBe(rowsBefore);
    expect((await data.admin.get(`/applications/${RESTORED}`)).status).toBe(404);

    const restored = await restore(backup.bytes);
    expect(
      streamEvents(restored.text).find((event) => event.type === 'result'),
      restored.text,
    ).toBeDefined();
    expect(await partsCount()).toBe(2 * partsBefore);
    const versions = await data.admin.get(`/applications/${RESTORED}/filesOnRepository/readings`);
    expect(versions.status, versions.text).toBe(200);
    expect(versions.body).toHaveLength(1);
    const restoredVersion = await fetchBytes(data, `/applications/${RESTORED}/file/${versions.body[0].id}`);
    expect(Buffer.from(restoredVersion.bytes).equals(Buffer.from(version))).toBe(true);
    const restoredNotes = await data.admin.get(`/applications/${RESTORED}/additionalFiles/notes`);
    expect(restoredNotes.status, restoredNotes.text).toBe(200);
    const [restoredFile] = restoredNotes.body.additionalBinaryFiles as Array<{ id: string }>;
    const restoredBytes = await fetchBytes(
      data,
      `/applications/${RESTORED}/additionalFiles/notes/${restoredFile!.id}/content`,
    );
    expect(Buffer.from(restoredBytes.bytes).equals(notes)).toBe(true);
  }, 240_000);

  it('larger than a restore here takes fails while it is written, rather than be given whole', async () => {
    const more = new FormData();
    more.append('params', JSON.stringify({ id: null, fileName: 'photos.bin', comment: 'photos', fields: {} }));
    more.append('file', new Blob([new Uint8Array(randomBytes(12 * 1024 * 1024))]), 'photos.bin');
    const added = await data.admin.post(`/applications/${APPLICATION}/additionalFiles/notes`, { body: more });
    expect(added.status, added.text).toBe(201);

    await expect(fetchBytes(data, `/applications/${APPLICATION}/upload-bundle?withData=true`)).rejects.toThrow();
    const answer = await declaredTooLarge(`/applications/${RESTORED}_again/upload-bundle`, BUNDLE_MAX_BYTES + 8e6);
    expect([answer.status, JSON.parse(answer.body).code], answer.body).toEqual([413, 'FILE_TOO_LARGE']);
  }, 240_000);
});
