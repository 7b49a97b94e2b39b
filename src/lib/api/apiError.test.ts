import { describe, expect, it } from 'vitest';
import { readErrorBody } from './apiError';

describe('reading error answers', () => {
  it('reads our envelope', () => {
    const error = readErrorBody(
      422,
      JSON.stringify({ code: 'EXISTING_EMAIL', message: 'EXISTING_EMAIL', params: { a: 1 } }),
    );
    expect([error.status, error.code, error.params]).toEqual([422, 'EXISTING_EMAIL', { a: 1 }]);
  });

  it('reads bare and JSON-quoted codes', () => {
    expect(readErrorBody(401, 'BAD_LOGIN_PASSWORD').code).toBe('BAD_LOGIN_PASSWORD');
    expect(readErrorBody(401, '"BAD_LOGIN_PASSWORD"').code).toBe('BAD_LOGIN_PASSWORD');
  });

  it('turns a bracketed list into positional parameters', () => {
    const error = readErrorBody(400, 'unknownApplication [ola, 2]');
    expect(error.code).toBe('unknownApplication');
    expect(error.params).toEqual(['ola', '2']);
  });

  it('keeps an empty body as an empty code', () => {
    expect(readErrorBody(500, '').code).toBe('');
  });
});
