import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { offlineDb } from './db';
import type { OutboxItem } from './outboxTypes';
import { refusedChange } from './refusedChange';

const item = (status: OutboxItem['status']): OutboxItem => ({
  idempotencyKey: `key-${status}`,
  kind: 'deposit.upload',
  summary: {},
  resource: 'dataset',
  request: { method: 'POST', path: '/x', headers: {}, body: { type: 'none' } },
  streamed: false,
  createdAt: 0,
  attempts: 1,
  nextAttemptAt: 0,
  status,
  size: 0,
});

describe('the change a reopened form edits', () => {
  it('is only one still refused: one retried since, on its way or applied, opens no form to replace it', async () => {
    const refused = (await offlineDb.outbox.add(item('needs-attention'))) as number;
    const retried = (await offlineDb.outbox.add(item('queued'))) as number;
    const applied = (await offlineDb.outbox.add(item('done'))) as number;
    expect((await refusedChange(refused))?.idempotencyKey).toBe('key-needs-attention');
    expect(await refusedChange(retried)).toBeUndefined();
    expect(await refusedChange(applied)).toBeUndefined();
    expect(await refusedChange(999)).toBeUndefined();
  });
});
