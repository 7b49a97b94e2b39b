import { describe, expect, it } from 'vitest';
import type { OutboxItem, OutboxKind, OutboxStatus } from '@/offline/outboxTypes';
import { acceptancesInOutbox } from './acceptances';

const item = (kind: OutboxKind, status: OutboxStatus, summary: Record<string, string>): OutboxItem => ({
  idempotencyKey: 'k',
  kind,
  summary,
  resource: 'user:ann',
  request: { method: 'PUT', path: '/users', headers: {}, body: { type: 'none' } },
  streamed: false,
  createdAt: 0,
  attempts: 0,
  nextAttemptAt: 0,
  status,
  size: 0,
});

describe('acceptancesInOutbox', () => {
  it('gives the charter versions accepted for the application, waiting, being sent or applied', () => {
    const items = [
      item('charter.accept', 'queued', { applicationId: 'a', charterUploadedAt: 'v1' }),
      item('charter.accept', 'sending', { applicationId: 'a', charterUploadedAt: 'v2' }),
      item('charter.accept', 'done', { applicationId: 'a', charterUploadedAt: 'v3' }),
    ];
    expect(acceptancesInOutbox(items, 'a')).toEqual(['v1', 'v2', 'v3']);
  });

  it('leaves out refused acceptances, other applications and other changes', () => {
    const items = [
      item('charter.accept', 'needs-attention', { applicationId: 'a', charterUploadedAt: 'v1' }),
      item('charter.accept', 'queued', { applicationId: 'b', charterUploadedAt: 'v1' }),
      item('charter.upload', 'queued', { applicationId: 'a', charterUploadedAt: 'v1' }),
    ];
    expect(acceptancesInOutbox(items, 'a')).toEqual([]);
  });
});
