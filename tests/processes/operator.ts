/**
 * The operator (the platform administrator every server process is started with) calling the API of a server
 * process, and small helpers of the tests that drive such processes.
 */
import { request } from 'node:http';
import { PROCESS_ADMIN, signIn, type TerrainProcess } from './terrainServer.ts';

/** The operator's session on a server: JSON and multipart calls with its bearer token. */
export class Operator {
  private constructor(
    public url: string,
    readonly token: string,
  ) {}

  static async of(server: TerrainProcess): Promise<Operator> {
    return new Operator(server.url, await signIn(server.url, PROCESS_ADMIN.login, PROCESS_ADMIN.password));
  }

  /** The same session on a restarted server (sessions live in the database). */
  on(server: TerrainProcess): Operator {
    this.url = server.url;
    return this;
  }

  async call(method: string, apiPath: string, body?: FormData | object, headers: Record<string, string> = {}) {
    const init: RequestInit = { method, headers: { authorization: `Bearer ${this.token}`, ...headers } };
    if (body instanceof FormData) init.body = body;
    else if (body !== undefined) {
      init.body = JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] = 'application/json';
    }
    const response = await fetch(`${this.url}/api/v1${apiPath}`, init);
    const text = await response.text();
    let parsed: any = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // NDJSON or CSV
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  }
}

/** A form as it goes over the wire: its bytes and its content type (with the boundary). */
export async function framedForm(form: FormData): Promise<{ bytes: Uint8Array; contentType: string }> {
  const framed = new Response(form);
  return { bytes: new Uint8Array(await framed.arrayBuffer()), contentType: framed.headers.get('content-type')! };
}

/** Request options sending a form as a stream, without declaring its size (as a client streaming a file does). */
export function streamedForm(form: FormData): RequestInit {
  const framed = new Response(form);
  return {
    body: framed.body,
    headers: { 'content-type': framed.headers.get('content-type')! },
    duplex: 'half',
  } as RequestInit;
}

/**
 * POSTs the first bytes of a body (`head`) that declares `declared` bytes, and waits for the answer without ever
 * sending the rest: an answer is the proof that the server gave it before reading the body. Refused when none comes
 * within `deadlineMs`.
 */
export function answerBeforeBody(
  url: string,
  headers: Record<string, string>,
  head: Uint8Array | string,
  declared: number,
  deadlineMs = 30_000,
): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const sending = request(url, { method: 'POST', headers: { ...headers, 'content-length': declared } });
    const deadline = setTimeout(() => {
      sending.destroy();
      reject(new Error(`no answer to ${url} while its body was not all sent`));
    }, deadlineMs);
    sending.on('error', reject);
    sending.on('response', (answer) => {
      let text = '';
      answer.on('data', (chunk: Buffer) => (text += chunk));
      answer.on('end', () => {
        clearTimeout(deadline);
        sending.destroy();
        resolve({ status: answer.statusCode!, body: JSON.parse(text) });
      });
    });
    sending.write(head);
  });
}

export function fileForm(fileName: string, content: string, params?: object): FormData {
  const form = new FormData();
  if (params) form.append('params', JSON.stringify(params));
  form.append('file', new Blob([content]), fileName);
  return form;
}

export const datasetQuery = (query: object) => `?downloadDatasetQuery=${encodeURIComponent(JSON.stringify(query))}`;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs: number,
  everyMs = 200,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(everyMs);
  }
}
