import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from './httpClient.ts';
import { startTestServer, type TestServer } from './harness.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

describe('the server', () => {
  it('registers, mails a key, activates and signs in', async () => {
    const client = new HttpClient(server.url + '/api/v1');
    const registered = await client.post('/users', { form: { login: 'smoke', password: 'pw-1', email: 'smoke@example.org' } });
    expect(registered.status).toBe(201);
    const key = await server.lastKey('smoke@example.org');
    const activated = await client.put('/users', { json: { login: 'smoke', password: 'pw-1', verificationKey: key } });
    expect(activated.status).toBe(200);
    const signedIn = await client.post('/login', { form: { login: 'smoke', password: 'pw-1' } });
    expect(signedIn.status).toBe(200);
    expect((await client.get('/me')).body.login).toBe('smoke');
  });
});
