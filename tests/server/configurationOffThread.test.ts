/**
 * Hostile configurations (decisions, *Configurations are validated off the request thread*): validating a 5 MB
 * configuration held the request thread most of a second (seconds on a busy machine) for every user, through
 * `POST /validate-configuration`, open to anyone signed in. It now runs in a worker thread with a budget: other
 * requests are answered meanwhile, and a validation past the budget is refused with a catalogued error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../src/domain/streaming/events.ts';
import { streamEvents, uploadForm } from './applicationFixtures.ts';
import { startDataServer, type DataServer } from './dataFixtures.ts';

/** About 4.9 MB, under the 5 MB of a YAML text: 1,000 data entries (the most accepted) of 86 components. */
function largeConfiguration(name: string): Uint8Array {
  const components = Array.from(
    { length: 85 },
    (_, index) => `      value${index}:\n        OA_checker: {OA_name: OA_integer}\n`,
  ).join('');
  const entries = Array.from(
    { length: 1_000 },
    (_, index) => `  e${index}:\n    OA_naturalKey: [code]\n    OA_basicComponents:\n      code: null\n${components}`,
  ).join('');
  const text = `OA_version: 2.0.1\nOA_application: {OA_name: ${name}, OA_version: 1.0.0}\nOA_data:\n${entries}`;
  return new TextEncoder().encode(text);
}

const SMALL = new TextEncoder().encode(`OA_version: 2.0.1
OA_application: {OA_name: small, OA_version: 1.0.0}
OA_data:
  sites:
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
`);

/**
 * Posts a configuration to `path` and reads its NDJSON answer as it comes: `started` resolves once the server has
 * said it is validating (the events sent before the validation), `validated` at the first event sent after it,
 * `events` with every event once the stream ends.
 */
function streamed(data: DataServer, path: string, fileName: string, bytes: Uint8Array) {
  const signal = () => {
    let resolve: () => void = () => undefined;
    const promise = new Promise<void>((done) => (resolve = done));
    return { promise, resolve };
  };
  const started = signal();
  const validated = signal();
  const events = (async () => {
    const response = await fetch(`${data.server.url}/api/v1${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${data.token}` },
      body: uploadForm(fileName, bytes),
    });
    expect(response.status).toBe(200);
    const read: StreamEvent<any>[] = [];
    const decoder = new TextDecoder();
    // The model, a result of megabytes, comes in many chunks: a line is joined once it is whole.
    let line: string[] = [];
    const reader = response.body!.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      const [first, ...others] = decoder.decode(chunk.value, { stream: true }).split('\n');
      line.push(first);
      for (const other of others) {
        read.push(...streamEvents(line.join('')));
        line = [other];
      }
      const begun = read.findIndex((event) => event.type === 'progress' && event.result === 0.1);
      if (begun >= 0) started.resolve();
      if (begun >= 0 && read.length > begun + 1) validated.resolve();
    }
    read.push(...streamEvents(line.join('')));
    started.resolve();
    validated.resolve();
    return read;
  })();
  return { started: started.promise, validated: validated.promise, events };
}

describe('a configuration validated in a worker thread', () => {
  let data: DataServer;
  beforeAll(async () => {
    data = await startDataServer();
    // The first validation starts the worker: not what is looked at.
    const warm = streamed(data, '/validate-configuration', 'small.yaml', SMALL);
    expect((await warm.events).some((event) => event.type === 'result' && event.result !== null)).toBe(true);
  }, 60_000);
  afterAll(() => data?.server.close());

  it('leaves the request thread free: another request is answered while a large configuration is validated', async () => {
    const large = largeConfiguration('large');
    expect(large.length).toBeGreaterThan(4_500_000);
    const order: string[] = [];
    const validation = streamed(data, '/validate-configuration', 'large.yaml', large);
    void validation.validated.then(() => order.push('validation ended'));
    await validation.started;
    // Before, the validation ran on the request thread right after these first events: `/me` waited for its end.
    const sent = performance.now();
    const me = await data.admin.get('/me');
    const meMs = performance.now() - sent;
    order.push('me answered');
    expect(me.status).toBe(200);
    const events = await validation.events;
    console.info(`/me answered in ${meMs.toFixed(0)} ms while ${large.length} bytes of configuration were validated`);
    expect(order).toEqual(['me answered', 'validation ended']);
    const result = events.find((event) => event.type === 'result');
    expect(result?.result).toMatchObject({ name: 'large', version: '1.0.0' });
    expect(result?.result.data).toHaveLength(1_000);
  });

  it('creates an application from a configuration validated in the worker', async () => {
    const creation = streamed(data, '/applications/small', 'small.yaml', SMALL);
    const events = await creation.events;
    expect(events.filter((event) => event.type === 'error')).toEqual([]);
    expect(events.find((event) => event.type === 'result')?.result).toMatchObject({ name: 'small' });
  });
});

describe('a configuration whose validation outlasts the budget', () => {
  let data: DataServer;
  beforeAll(async () => {
    // A budget a small configuration validates within and the large one does not.
    data = await startDataServer({ configurationBudgetMs: 100 });
  }, 60_000);
  afterAll(() => data?.server.close());

  const refused = (events: StreamEvent<any>[]) =>
    events
      .filter((event) => event.type === 'error')
      .map((event) => [event.errorType, event.result.code, event.result.params]);

  it('is refused with CONFIGURATION_CHECK_BUDGET_EXCEEDED and a null result, and nothing is created', async () => {
    const validated = await streamed(data, '/validate-configuration', 'large.yaml', largeConfiguration('large')).events;
    expect(refused(validated)).toEqual([
      ['ValidationError', 'CONFIGURATION_CHECK_BUDGET_EXCEEDED', { budgetSeconds: 0.1 }],
    ]);
    expect(validated.find((event) => event.type === 'result')?.result).toBeNull();

    const created = await streamed(data, '/applications/large', 'large.yaml', largeConfiguration('large')).events;
    expect(refused(created)).toEqual([
      ['ValidationError', 'CONFIGURATION_CHECK_BUDGET_EXCEEDED', { budgetSeconds: 0.1 }],
    ]);
    expect((await data.admin.get('/applications/large')).status).toBe(404);
  });

  it('leaves the next configuration to a new worker, which validates it', async () => {
    const events = await streamed(data, '/validate-configuration', 'small.yaml', SMALL).events;
    expect(refused(events)).toEqual([]);
    expect(events.find((event) => event.type === 'result')?.result).toMatchObject({ name: 'small' });
  });
});
