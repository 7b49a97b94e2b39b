/**
 * Application list: with 500 applications stored on PGlite, the time over real HTTP from sending
 * `GET /api/v1/applications` to the first streamed `result` event (the first card) and to the end of the stream
 * (the whole list), median of several runs after warm-up. The applications are inserted straight into the
 * database, each with the model, summary and original file of fieldnotes-v1.yaml.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { summarizeApplication } from '../../src/domain/applications/summary.ts';
import { serializeModel, validateConfiguration } from '../../src/domain/configuration/index.ts';
import { startTestServer } from '../server/harness.ts';
import type { Benchmark, BenchFigure } from './types.ts';

const APPLICATIONS = 500;
const ADMIN = { login: 'bench', password: 'bench-password', email: 'bench@terrain.test' };

interface ListTiming {
  firstResultMs: number;
  completeMs: number;
  results: number;
  bytes: number;
}

/**
 * The browser's side, in a worker thread: the server runs on this thread (PGlite too), so a client sharing its
 * event loop would read nothing until the server paused, and would time the server's whole work, not the stream.
 * One list request, read chunk by chunk, timing the first result line and the end.
 */
const CLIENT = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', async ({ url, token }) => {
  const start = performance.now();
  const response = await fetch(url + '/api/v1/applications', { headers: { authorization: 'Bearer ' + token } });
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let pending = '', firstResultMs = NaN, results = 0, bytes = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    bytes += read.value.byteLength;
    pending += decoder.decode(read.value, { stream: true });
    const lines = pending.split('\\n');
    pending = lines.pop();
    for (const line of lines) {
      if (line.trim() === '' || JSON.parse(line).type !== 'result') continue;
      results += 1;
      if (Number.isNaN(firstResultMs)) firstResultMs = performance.now() - start;
    }
  }
  parentPort.postMessage({ status: response.status, firstResultMs, completeMs: performance.now() - start, results, bytes });
});
`;

function listClient() {
  const worker = new Worker(CLIENT, { eval: true });
  return {
    time(url: string, token: string): Promise<ListTiming> {
      return new Promise((resolve, reject) => {
        const failed = (error: Error) => reject(error);
        worker.once('error', failed);
        worker.once('message', (timing: ListTiming & { status: number }) => {
          worker.off('error', failed);
          if (timing.status === 200) resolve(timing);
          else reject(new Error(`list answered ${timing.status}`));
        });
        worker.postMessage({ url, token });
      });
    },
    close: () => worker.terminate(),
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const bench: Benchmark = {
  area: 'applications',
  async run({ quick }) {
    // The target is for the embedded database: leave any DATABASE_URL aside while the server starts.
    const databaseUrl = process.env.DATABASE_URL;
    delete process.env.DATABASE_URL;
    const server = await startTestServer({ admin: ADMIN }).finally(() => {
      if (databaseUrl !== undefined) process.env.DATABASE_URL = databaseUrl;
    });
    try {
      const db = server.server.ctx.db;
      const fileName = 'fieldnotes-v1.yaml';
      const bytes = new Uint8Array(
        readFileSync(path.resolve(import.meta.dirname, '../fixtures/configurations', fileName)),
      );
      const validated = validateConfiguration(bytes, fileName);
      if (!validated.ok) throw new Error(`${fileName} is not valid: ${JSON.stringify(validated.errors[0])}`);
      const model = serializeModel(validated.value);
      const summary = JSON.stringify(summarizeApplication(validated.value));
      const admin = await db
        .selectFrom('users')
        .select('id')
        .where('login', '=', ADMIN.login)
        .executeTakeFirstOrThrow();

      const applications = Array.from({ length: APPLICATIONS }, (_, index) => ({
        id: randomUUID(),
        name: `app_${String(index).padStart(3, '0')}`,
        version: validated.value.version,
        comment: `Application ${index}`,
        summary,
        model,
        creator_id: admin.id,
      }));
      for (let from = 0; from < applications.length; from += 100) {
        const batch = applications.slice(from, from + 100);
        await db.insertInto('applications').values(batch).execute();
        await db
          .insertInto('configurations')
          .values(
            batch.map((a) => ({
              id: randomUUID(),
              application_id: a.id,
              version: a.version,
              file_name: fileName,
              content: bytes,
              model,
              comment: a.comment,
              uploaded_by: admin.id,
            })),
          )
          .execute();
        await db
          .insertInto('application_roles')
          .values(batch.map((a) => ({ application_id: a.id, user_id: admin.id, role: 'applicationManager' as const })))
          .execute();
      }

      const login = await fetch(`${server.url}/api/v1/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ login: ADMIN.login, password: ADMIN.password }).toString(),
      });
      const token = login.headers.get('authorization')?.replace(/^Bearer /, '');
      if (login.status !== 200 || !token) throw new Error(`sign-in answered ${login.status}`);

      const warmUp = quick ? 2 : 5;
      const runs = quick ? 5 : 15;
      const client = listClient();
      const timings: ListTiming[] = [];
      try {
        for (let index = 0; index < warmUp; index += 1) await client.time(server.url, token);
        for (let index = 0; index < runs; index += 1) timings.push(await client.time(server.url, token));
      } finally {
        await client.close();
      }
      const wrong = timings.find((t) => t.results !== APPLICATIONS);
      if (wrong) throw new Error(`the list streamed ${wrong.results} results instead of ${APPLICATIONS}`);

      const first = median(timings.map((t) => t.firstResultMs));
      const complete = median(timings.map((t) => t.completeMs));
      const figures: BenchFigure[] = [
        {
          name: `GET /applications, ${APPLICATIONS} stored (PGlite): first result, median of ${runs}`,
          value: first,
          unit: 'ms',
          target: '≤ 100 ms',
          pass: first <= 100,
        },
        {
          name: `GET /applications, ${APPLICATIONS} stored (PGlite): complete list, median of ${runs}`,
          value: complete,
          unit: 'ms',
          target: '≤ 1000 ms',
          pass: complete <= 1000,
        },
        { name: 'size of the complete list stream', value: timings[0].bytes / 1024, unit: 'KiB' },
      ];
      return figures;
    } finally {
      await server.close();
    }
  },
};

export default bench;
