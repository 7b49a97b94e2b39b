import { describe, expect, it } from 'vitest';
import { refusedAsEarlierVersion } from './earlierVersionRefusal';
import type { OutboxError, OutboxItem } from './outboxTypes';

const refused = (error: OutboxError, build?: string): OutboxItem => ({
  idempotencyKey: 'k',
  kind: 'deposit.publish',
  summary: {},
  resource: 'r',
  request: { method: 'POST', path: '/p', headers: {}, body: { type: 'none' } },
  streamed: false,
  createdAt: 0,
  attempts: 1,
  nextAttemptAt: 0,
  status: 'needs-attention',
  size: 0,
  lastError: error,
  ...(build === undefined ? {} : { build }),
});

const badRequest: OutboxError = { status: 400, code: 'BAD_REQUEST', params: { details: ['/x must be string'] } };
const noRoute: OutboxError = { status: 404, code: 'NOT_FOUND', params: {} };

describe('a refusal of a change an earlier version of Terrain prepared', () => {
  it('is a malformed request or an unknown address, for a change of another build or of none recorded', () => {
    expect(refusedAsEarlierVersion(refused(badRequest, '0.1.0+old'), '0.1.0+new')).toBe(true);
    expect(refusedAsEarlierVersion(refused(noRoute, '0.1.0+old'), '0.1.0+new')).toBe(true);
    expect(refusedAsEarlierVersion(refused(badRequest), '0.1.0+new')).toBe(true);
  });

  it('is not one of a change this build prepared: the server refuses what it made for its own reasons', () => {
    expect(refusedAsEarlierVersion(refused(badRequest, '0.1.0+new'), '0.1.0+new')).toBe(false);
  });

  it('is not a refusal of what the change asks for, whichever build prepared it', () => {
    expect(refusedAsEarlierVersion(refused({ status: 404, code: 'APPLICATION_NOT_FOUND', params: {} }), 'b')).toBe(
      false,
    );
    expect(refusedAsEarlierVersion(refused({ status: 409, code: 'CONFLICT', params: {} }), 'b')).toBe(false);
    expect(refusedAsEarlierVersion(refused({ status: 0, code: 'NETWORK_ERROR', params: {} }), 'b')).toBe(false);
  });

  it('is not told of a change waiting to be sent', () => {
    expect(refusedAsEarlierVersion({ ...refused(badRequest), status: 'queued' }, 'b')).toBe(false);
  });
});
