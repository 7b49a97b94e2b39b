import { expect } from 'vitest';
import { HttpClient, type Answer, type RequestOptions } from './httpClient.ts';
import type { TestServer } from './harness.ts';

/**
 * Every answer the server gives in one test file, kept so the file can check at the end that none of them let
 * a secret or an internal detail out. Each answer is also checked as it arrives, so the test that provoked a
 * leak is the one that fails.
 */
export const recordedAnswers: Array<{ method: string; path: string; status: number; text: string }> = [];

const LEAKS: Array<[string, RegExp]> = [
  ['a password hash column', /password_hash/i],
  ['an argon2 hash', /\$argon2/i],
  ['a stack trace', /\bat [^\s"]+ \(?[^\s"]*:\d+:\d+\)?/],
  ['a stack property', /"stack"\s*:/],
  ['a source path', /(node_modules|\/work\/|\.ts:\d+)/],
];

export function leaksIn(text: string): string[] {
  return LEAKS.filter(([, pattern]) => pattern.test(text)).map(([what]) => what);
}

/** To call from `afterAll`: every answer of the file was clean (and there were answers to look at). */
export function expectNoLeakInRecordedAnswers() {
  expect(recordedAnswers.length).toBeGreaterThan(0);
  const leaking = recordedAnswers
    .filter((a) => leaksIn(a.text).length > 0)
    .map((a) => `${a.method} ${a.path} → ${a.status}: ${leaksIn(a.text).join(', ')}`);
  expect(leaking).toEqual([]);
}

/** The tests' browser: keeps the session cookie like HttpClient, and records and checks every answer. */
export class ApiClient extends HttpClient {
  override async request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<Answer<T>> {
    const answer = await super.request<T>(method, path, options);
    recordedAnswers.push({ method, path, status: answer.status, text: answer.text });
    const leaks = leaksIn(answer.text);
    if (leaks.length > 0)
      throw new Error(`${method} ${path} answered ${leaks.join(', ')}: ${answer.text.slice(0, 500)}`);
    return answer;
  }
}

/** A client of the API (`/api/v1`) with no session. */
export function api(server: TestServer, headers: Record<string, string> = {}): ApiClient {
  return new ApiClient(`${server.url}/api/v1`, headers);
}

/** A client addressing the server's root, for paths outside `/api/v1`. */
export function root(server: TestServer, headers: Record<string, string> = {}): ApiClient {
  return new ApiClient(server.url, headers);
}
