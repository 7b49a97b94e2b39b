import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchWithUploadProgress } from './uploadProgress';

/** A stand-in for the browser's XMLHttpRequest: reports two progress steps, then answers. */
class FakeRequest {
  static last: FakeRequest;
  static answer = {
    status: 201,
    headers: 'content-type: application/json\r\nidempotent-replayed: true\r\n',
    body: '{"id":"f1"}',
  };
  method = '';
  url = '';
  headers: Record<string, string> = {};
  withCredentials = false;
  responseType = '';
  status = 0;
  statusText = '';
  response: ArrayBuffer | null = null;
  upload: { onprogress?: (event: { loaded: number; total: number; lengthComputable: boolean }) => void } = {};
  onload?: () => void;
  onerror?: () => void;
  onabort?: () => void;
  sent: unknown;
  constructor() {
    FakeRequest.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  getAllResponseHeaders() {
    return FakeRequest.answer.headers;
  }
  send(body: unknown) {
    this.sent = body;
    this.upload.onprogress?.({ loaded: 5, total: 10, lengthComputable: true });
    this.upload.onprogress?.({ loaded: 10, total: 10, lengthComputable: true });
    if (FakeRequest.answer.status === 0) return this.onerror?.();
    this.status = FakeRequest.answer.status;
    this.response = new TextEncoder().encode(FakeRequest.answer.body).buffer as ArrayBuffer;
    this.onload?.();
  }
}

afterEach(() => vi.unstubAllGlobals());

describe('fetchWithUploadProgress', () => {
  it('reports the bytes sent and answers like fetch', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeRequest);
    const steps: Array<[number, number]> = [];
    const response = await fetchWithUploadProgress((sent, total) => steps.push([sent, total]))('/api/v1/x', {
      method: 'POST',
      headers: { 'Idempotency-Key': 'k1' },
      body: 'payload',
    });
    expect(steps).toEqual([
      [5, 10],
      [10, 10],
    ]);
    expect(FakeRequest.last).toMatchObject({
      method: 'POST',
      url: '/api/v1/x',
      headers: { 'idempotency-key': 'k1' },
      sent: 'payload',
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('idempotent-replayed')).toBe('true');
    expect(await response.json()).toEqual({ id: 'f1' });
  });

  it('fails like fetch when the network does', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeRequest);
    FakeRequest.answer = { status: 0, headers: '', body: '' };
    await expect(fetchWithUploadProgress(() => undefined)('/api/v1/x', { method: 'POST' })).rejects.toBeInstanceOf(
      TypeError,
    );
  });
});
