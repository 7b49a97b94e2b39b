import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { CONTENT_SECURITY_POLICY } from '../../server/http/securityHeaders.ts';
import { MAX_CSV_BYTES } from '../../server/services/references.ts';
import { startTestServer, type TestServer } from './harness.ts';
import { freePort } from '../processes/freePort.ts';
import { fixture, uploadForm } from './applicationFixtures.ts';

/**
 * The nginx site of docs/deploy.md (deploy/nginx/terrain.conf), run by Debian's nginx under Debian's own
 * nginx.conf, on loopback ports, with TLS (a throw-away certificate), in front of two instances on one PostgreSQL
 * database: the UI files with their cache and security headers, /api proxied to both instances with what they
 * must know (HTTPS, host, client address), streamed answers passed on as they are written, and uploads above the
 * instances' limit refused with 413. Only the addresses, ports, paths and certificate are rewritten for the test.
 */

const SITE = path.resolve(import.meta.dirname, '../../deploy/nginx/terrain.conf');
const DEBIAN_CONF = '/etc/nginx/nginx.conf';
const HOST = 'terrain.example.org';
const nginxBinary = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((candidate) => existsSync(candidate));
const hasOpenssl = ['/usr/bin/openssl', '/bin/openssl'].some((candidate) => existsSync(candidate));
const onPostgres = Boolean(process.env.DATABASE_URL);
const missing = [
  !nginxBinary || !existsSync(DEBIAN_CONF) ? "Debian's nginx (apt-get install nginx)" : undefined,
  !hasOpenssl ? 'openssl' : undefined,
  !onPostgres ? 'a shared PostgreSQL (DATABASE_URL, as .ci/run sets it)' : undefined,
].filter(Boolean);
if (missing.length > 0)
  console.info(`nginx.test.ts NOT RUN: the nginx configuration was not tested — missing ${missing.join(', ')}`);

/** Replaces `from` in `text`, which must hold it exactly once: a changed file cannot slip past the test. */
function replaceOnce(text: string, from: string | RegExp, to: string): string {
  const count =
    typeof from === 'string'
      ? text.split(from).length - 1
      : (text.match(new RegExp(from.source, `${from.flags}g`)) ?? []).length;
  if (count !== 1) throw new Error(`expected exactly one ${String(from)} in the configuration, found ${count}`);
  return text.replace(from, to);
}

/** `promise`, or a failure naming `what` once `ms` have passed. */
async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not come within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

describe.skipIf(missing.length > 0)("Debian's nginx with deploy/nginx/terrain.conf in front of two instances", () => {
  let dir: string;
  let nginx: ChildProcess;
  let first: TestServer;
  let second: TestServer;
  let httpsPort: number;
  let httpPort: number;
  let certificate: Buffer;
  let nginxLog = '';
  const received = { first: 0, second: 0 };

  /** A request over TLS to nginx, as a browser on https://terrain.example.org sends it. */
  function open(method: string, pathname: string, headers: Record<string, string | number> = {}) {
    return httpsRequest({
      host: '127.0.0.1',
      port: httpsPort,
      servername: HOST,
      ca: certificate,
      method,
      path: pathname,
      headers: { host: HOST, ...headers },
      agent: false,
    });
  }
  const responseOf = (request: ReturnType<typeof open>) =>
    new Promise<IncomingMessage>((resolve, reject) => request.once('response', resolve).once('error', reject));
  const bodyOf = async (response: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of response) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  };
  async function call(
    method: string,
    pathname: string,
    headers: Record<string, string | number> = {},
    body?: Buffer | string,
  ): Promise<Reply> {
    const request = open(
      method,
      pathname,
      body === undefined ? headers : { 'content-length': Buffer.byteLength(body), ...headers },
    );
    request.end(body);
    const response = await responseOf(request);
    return { status: response.statusCode!, headers: response.headers, body: await bodyOf(response) };
  }
  /** A multipart form as bytes, with its content type. */
  async function multipart(form: FormData) {
    const encoded = new Response(form);
    return { type: encoded.headers.get('content-type')!, bytes: Buffer.from(await encoded.arrayBuffer()) };
  }

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'terrain-nginx-'));
    // nginx's workers run as www-data when the test runs as root: they must be able to read the UI files.
    await chmod(dir, 0o755);
    const www = path.join(dir, 'www');
    await mkdir(path.join(www, 'assets'), { recursive: true });
    await writeFile(
      path.join(www, 'index.html'),
      '<!doctype html><html><head><script type="module" src="/assets/index-Ab12Cd34.js"></script></head><body><div id="root"></div></body></html>',
    );
    await writeFile(
      path.join(www, 'assets', 'index-Ab12Cd34.js'),
      'document.getElementById("root").textContent = "Terrain";\n',
    );
    await writeFile(path.join(www, 'sw.js'), 'self.addEventListener("install", () => self.skipWaiting());\n');
    await writeFile(path.join(www, 'manifest.webmanifest'), '{"name":"Terrain"}');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '2',
        '-subj',
        `/CN=${HOST}`,
        '-addext',
        `subjectAltName=DNS:${HOST}`,
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    certificate = await readFile(path.join(dir, 'cert.pem'));

    const limits = { loginRateLimit: { perLogin: 100, perAddress: 6, global: 100_000, windowSeconds: 900 } };
    const admin = { login: 'root', password: 'root-password', email: 'root@terrain.test' };
    first = await startTestServer({ trustProxy: true, admin, ...limits });
    second = await startTestServer({ trustProxy: true, admin, ...limits, databaseUrl: first.databaseUrl });
    first.server.app.server.on('request', () => (received.first += 1));
    second.server.app.server.on('request', () => (received.second += 1));

    // Two ports asked one after the other may be the same one, freed in between: nginx then refused the site.
    httpPort = await freePort();
    do httpsPort = await freePort();
    while (httpsPort === httpPort);
    let site = readFileSync(SITE, 'utf8');
    site = replaceOnce(site, /^\s*listen 80;$/m, `    listen 127.0.0.1:${httpPort};`);
    site = replaceOnce(site, /^\s*listen \[::\]:80;\n/m, '');
    site = replaceOnce(site, /^\s*listen 443 ssl http2;$/m, `    listen 127.0.0.1:${httpsPort} ssl http2;`);
    site = replaceOnce(site, /^\s*listen \[::\]:443 ssl http2;\n/m, '');
    site = replaceOnce(site, 'server 127.0.0.1:8081 ', `server ${new URL(first.url).host} `);
    site = replaceOnce(site, 'server 127.0.0.1:8082 ', `server ${new URL(second.url).host} `);
    site = replaceOnce(site, 'root /srv/terrain/www;', `root ${www};`);
    site = replaceOnce(site, /ssl_certificate +\S+;/, `ssl_certificate ${path.join(dir, 'cert.pem')};`);
    site = replaceOnce(site, /ssl_certificate_key +\S+;/, `ssl_certificate_key ${path.join(dir, 'key.pem')};`);
    await writeFile(path.join(dir, 'terrain.conf'), site);

    // Debian's main configuration as installed, with its own files (pid, logs, temporary folders) moved here and
    // only this site enabled.
    let main = readFileSync(DEBIAN_CONF, 'utf8');
    main = replaceOnce(main, /^pid .*;$/m, `pid ${path.join(dir, 'nginx.pid')};`);
    main = replaceOnce(main, /^error_log .*;$/m, `error_log ${path.join(dir, 'error.log')};`);
    main = replaceOnce(main, /^\s*access_log .*;$/m, `access_log ${path.join(dir, 'access.log')};`);
    main = replaceOnce(main, /^worker_processes .*;$/m, 'worker_processes 2;');
    main = replaceOnce(main, /^\s*include \/etc\/nginx\/conf\.d\/\*\.conf;$/m, '');
    const temporary = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
      .map((kind) => `${kind}_temp_path ${path.join(dir, `${kind}_temp`)};`)
      .join(' ');
    main = replaceOnce(
      main,
      /^\s*include \/etc\/nginx\/sites-enabled\/\*;$/m,
      `${temporary}\ninclude ${path.join(dir, 'terrain.conf')};`,
    );
    if (process.getuid?.() !== 0) main = replaceOnce(main, /^user .*;$/m, '');
    await writeFile(path.join(dir, 'nginx.conf'), main);

    const args = ['-e', path.join(dir, 'error.log'), '-c', path.join(dir, 'nginx.conf')];
    execFileSync(nginxBinary!, ['-t', ...args], { stdio: 'pipe' });
    nginx = spawn(nginxBinary!, [...args, '-g', 'daemon off;'], { stdio: ['ignore', 'pipe', 'pipe'] });
    nginx.stderr!.on('data', (chunk: Buffer) => (nginxLog += chunk.toString()));
    for (let attempt = 0; ; attempt++) {
      const listening = await new Promise<boolean>((resolve) => {
        const socket = connect(httpsPort, '127.0.0.1', () => {
          socket.end();
          resolve(true);
        }).once('error', () => resolve(false));
      });
      if (listening) break;
      if (attempt > 100 || nginx.exitCode !== null)
        throw new Error(
          `nginx did not start: ${nginxLog}${await readFile(path.join(dir, 'error.log'), 'utf8').catch(() => '')}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }, 120_000);

  afterAll(async () => {
    if (nginx && nginx.exitCode === null) {
      const ended = new Promise((resolve) => nginx.once('exit', resolve));
      nginx.kill('SIGTERM');
      await ended;
    }
    await second?.close();
    await first?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const securityHeaders = (reply: Reply) => ({
    csp: reply.headers['content-security-policy'],
    nosniff: reply.headers['x-content-type-options'],
    referrer: reply.headers['referrer-policy'],
    frames: reply.headers['x-frame-options'],
    opener: reply.headers['cross-origin-opener-policy'],
    hsts: reply.headers['strict-transport-security'],
  });
  const expectedSecurityHeaders = {
    csp: CONTENT_SECURITY_POLICY,
    nosniff: 'nosniff',
    referrer: 'same-origin',
    frames: 'SAMEORIGIN',
    opener: 'same-origin',
    hsts: 'max-age=31536000',
  };

  it('sends plain HTTP to HTTPS', async () => {
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      httpRequest({ host: '127.0.0.1', port: httpPort, path: '/applications?x=1', headers: { host: HOST } }, resolve)
        .once('error', reject)
        .end();
    });
    response.resume();
    expect(response.statusCode).toBe(301);
    expect(response.headers.location).toBe(`https://${HOST}/applications?x=1`);
  });

  it('serves index.html for every page address, revalidated on each use, with the security headers of the instances', async () => {
    for (const page of ['/', '/applications', '/applications/surveys/references/sites?x=1']) {
      const reply = await call('GET', page);
      expect(reply.status, page).toBe(200);
      expect(reply.body).toContain('<div id="root">');
      expect(reply.headers['content-type']).toMatch(/^text\/html/);
      expect(reply.headers['cache-control']).toBe('no-cache');
      expect(securityHeaders(reply)).toEqual(expectedSecurityHeaders);
    }
  });

  it('serves the service worker and the manifest revalidated, with their types', async () => {
    const worker = await call('GET', '/sw.js');
    expect(worker.status).toBe(200);
    expect(worker.headers['content-type']).toMatch(/^application\/javascript/);
    expect(worker.headers['cache-control']).toBe('no-cache');
    expect(securityHeaders(worker)).toEqual(expectedSecurityHeaders);
    const manifest = await call('GET', '/manifest.webmanifest');
    expect(manifest.headers['content-type']).toBe('application/manifest+json');
    expect(manifest.headers['cache-control']).toBe('no-cache');
  });

  it('serves hashed build files as immutable for a year, and a missing one as 404, never the page', async () => {
    const script = await call('GET', '/assets/index-Ab12Cd34.js');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toMatch(/^application\/javascript/);
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(securityHeaders(script)).toEqual(expectedSecurityHeaders);
    const missingScript = await call('GET', '/assets/index-Zz99Yy88.js');
    expect(missingScript.status).toBe(404);
    expect(missingScript.body).not.toContain('<div id="root">');
    const missingOpened = await call('GET', '/assets/index-Zz99Yy88.js', { accept: 'text/html' });
    expect(missingOpened.status).toBe(404);
  });

  it('serves the page to a browser opening an address that ends like a file name (a version 1.0.0), not to a script', async () => {
    const opened = await call('GET', '/applicationCreation/surveys/1.0.0', { accept: 'text/html,*/*;q=0.8' });
    expect(opened.status).toBe(200);
    expect(opened.body).toContain('<div id="root">');
    expect(securityHeaders(opened)).toEqual(expectedSecurityHeaders);
    expect((await call('GET', '/applicationCreation/surveys/1.0.0', { accept: '*/*' })).status).toBe(404);
  });

  it('passes /api to the instances, which know the call came over HTTPS: one set of security headers, HSTS, Secure cookie', async () => {
    const document = await call('GET', '/api/v1/openapi.json');
    expect(document.status).toBe(200);
    expect(JSON.parse(document.body).openapi).toMatch(/^3\./);
    expect(securityHeaders(document)).toEqual(expectedSecurityHeaders);

    // Sent as a page of the portal sends it: the CSRF guard sees the same host in Origin and in the request.
    const signedIn = await call(
      'POST',
      '/api/v1/login',
      { origin: `https://${HOST}`, 'content-type': 'application/x-www-form-urlencoded' },
      'login=root&password=root-password',
    );
    expect(signedIn.status, signedIn.body).toBe(200);
    const cookie = (signedIn.headers['set-cookie'] ?? []).find((line) => line.startsWith('__Host-terrain_session='))!;
    expect(cookie.split(';').map((a) => a.trim().toLowerCase())).toContain('secure');
  });

  it('spreads calls over both instances, which honour one session', async () => {
    const token = (
      await call(
        'POST',
        '/api/v1/login',
        { 'content-type': 'application/json' },
        JSON.stringify({ login: 'root', password: 'root-password' }),
      )
    ).headers.authorization!;
    const before = { ...received };
    for (let i = 0; i < 6; i++) expect((await call('GET', '/api/v1/me', { authorization: token })).status).toBe(200);
    expect(received.first - before.first).toBeGreaterThan(0);
    expect(received.second - before.second).toBeGreaterThan(0);
  });

  it('passes a streamed answer on line by line, while the instance is still writing it', async () => {
    const token = (
      await call(
        'POST',
        '/api/v1/login',
        { 'content-type': 'application/json' },
        JSON.stringify({ login: 'root', password: 'root-password' }),
      )
    ).headers.authorization!;
    const form = await multipart(uploadForm('fieldnotes-v1.yaml', fixture('fieldnotes-v1.yaml')));
    const created = await call(
      'POST',
      '/api/v1/applications/streamed',
      { authorization: token, 'content-type': form.type },
      form.bytes,
    );
    expect(created.status, created.body).toBe(200);
    expect(created.headers['content-type']).toContain('application/x-ndjson');
    expect(created.body).toContain('"type":"result"');

    // The list writes its first event, then reads the applications' authorizations: holding that table locked
    // keeps the answer open after its first line.
    const blocker = new pg.Client({ connectionString: first.databaseUrl });
    await blocker.connect();
    try {
      await blocker.query('begin');
      await blocker.query('lock table authorizations in access exclusive mode');
      const request = open('GET', '/api/v1/applications', { authorization: token });
      request.end();
      const response = await within(5000, 'the answer’s headers', responseOf(request));
      expect(response.statusCode).toBe(200);
      let streamed = '';
      const firstLine = await within(
        5000,
        'the first line',
        new Promise<string>((resolve) => {
          const onData = (chunk: Buffer) => {
            streamed += chunk.toString();
            if (!streamed.includes('\n')) return;
            response.off('data', onData);
            response.pause();
            resolve(streamed.split('\n')[0]);
          };
          response.on('data', onData);
        }),
      );
      expect(JSON.parse(firstLine)).toMatchObject({ type: 'info', result: 'application.list' });
      expect(response.complete).toBe(false);
      await blocker.query('commit');
      streamed += await bodyOf(response);
      expect(streamed).toContain('"name":"streamed"');
    } finally {
      await blocker.end();
    }
  });

  /** Sends the headers of an upload declaring `bytes` bytes and its first 64 kB; answers the status. */
  async function declaredUpload(pathname: string, bytes: number) {
    const request = open('POST', pathname, {
      'content-type': 'multipart/form-data; boundary=x',
      'content-length': bytes,
    });
    request.on('error', () => undefined);
    request.write(Buffer.alloc(64 * 1024));
    const response = await responseOf(request);
    response.resume();
    request.destroy();
    return response.statusCode;
  }
  const limitsOf = (site: string) =>
    [...site.matchAll(/client_max_body_size (\d+)m;/g)].map((m) => Number(m[1]) * 1024 * 1024);

  it('refuses an upload larger than the instances accept with 413 before it reaches them', async () => {
    const [limit] = limitsOf(readFileSync(SITE, 'utf8'));
    // Room for the largest file the instances take, plus the form around it; not much more.
    expect(limit).toBeGreaterThan(MAX_CSV_BYTES);
    expect(limit).toBeLessThanOrEqual(MAX_CSV_BYTES + 2 * 1024 * 1024);
    const before = { ...received };
    expect(await declaredUpload('/api/v1/applications/streamed/references/sites', limit + 1)).toBe(413);
    expect(received).toEqual(before);
  });

  it('lets a backup being restored through up to the instances’ own limit for it', async () => {
    const [, restoreLimit] = limitsOf(readFileSync(SITE, 'utf8'));
    const { bundleMaxBytes } = loadConfig({});
    expect(restoreLimit).toBeGreaterThan(bundleMaxBytes);
    expect(restoreLimit).toBeLessThanOrEqual(bundleMaxBytes + 2 * 1024 * 1024);
    const before = { ...received };
    // Without a session the instance refuses it at once; what matters is that nginx let it through.
    expect(await declaredUpload('/api/v1/applications/restored/upload-bundle', restoreLimit)).toBe(401);
    expect(received.first + received.second).toBe(before.first + before.second + 1);
    expect(await declaredUpload('/api/v1/applications/restored/upload-bundle', restoreLimit + 1)).toBe(413);
    expect(received.first + received.second).toBe(before.first + before.second + 1);
  });

  it('gives the instances the address nginx saw: a forged X-Forwarded-For does not escape the per-address sign-in limit', async () => {
    // Six failed sign-ins per address and window: the forged addresses would each start afresh if they were believed.
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 8; attempt++) {
      const reply = await call(
        'POST',
        '/api/v1/login',
        { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${attempt + 1}` },
        JSON.stringify({ login: `spray${attempt}`, password: 'guess' }),
      );
      statuses.push(reply.status);
    }
    expect(statuses).toContain(429);
    expect(statuses.slice(statuses.indexOf(429))).toEqual(statuses.slice(statuses.indexOf(429)).map(() => 429));
  });
});
