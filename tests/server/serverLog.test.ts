/**
 * The server's log (issue 23): JSON lines from Fastify's pino logger, each line about a request carrying its
 * `reqId`; an internal error is logged with its stack, so that a 500 in production can be traced to its cause.
 */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from './apiClient.ts';
import { startTestServer, type TestServer } from './harness.ts';

const lines: Array<Record<string, any>> = [];
let server: TestServer;
let answerTheSlowRequest = () => {};

beforeAll(async () => {
  const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  server = await startTestServer(
    {},
    {},
    {
      logger,
      beforeListen: (app) => {
        app.get('/api/v1/test/failure', async () => {
          throw new Error('a bug met while answering');
        });
        app.get('/api/v1/test/slow', () => new Promise((resolve) => (answerTheSlowRequest = () => resolve({}))));
      },
    },
  );
}, 120_000);
afterAll(() => server?.close());

describe('the server log', () => {
  it('logs an internal error with its stack and the request id, and the answer at debug level', async () => {
    const answer = await api(server).get('/test/failure');
    expect([answer.status, answer.body.code]).toEqual([500, 'INTERNAL_ERROR']);
    expect(JSON.stringify(answer.body)).not.toContain('a bug');
    const error = lines.find((line) => line.msg === 'internal error');
    expect(error).toMatchObject({
      level: 50,
      method: 'GET',
      url: '/api/v1/test/failure',
      err: { message: 'a bug met while answering' },
    });
    expect(error!.err.stack).toContain('serverLog.test.ts');
    expect(error!.reqId).toBeDefined();
    const answered = lines.find((line) => line.msg === 'answered' && line.reqId === error!.reqId);
    expect(answered).toMatchObject({ level: 20, statusCode: 500 });
  });

  it('logs at debug level when a request arrived, and when its client left before the answer', async () => {
    const leaving = new AbortController();
    const sent = fetch(`${server.url}/api/v1/test/slow`, { signal: leaving.signal }).catch(() => 'left');
    await expect
      .poll(() => lines.some((line) => line.msg === 'arrived' && line.url === '/api/v1/test/slow'))
      .toBe(true);
    leaving.abort();
    expect(await sent).toBe('left');
    const arrived = lines.find((line) => line.msg === 'arrived' && line.url === '/api/v1/test/slow')!;
    await expect
      .poll(() => lines.find((line) => line.msg === 'client left' && line.reqId === arrived.reqId))
      .toMatchObject({ level: 20 });
    answerTheSlowRequest();
  });
});
