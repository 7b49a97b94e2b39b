// @vitest-environment jsdom
import { renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { OutboxItem, OutboxStatus } from './outboxTypes';
import { useRefreshWhenApplied } from './useRefreshWhenApplied';

const item = (id: number, status: OutboxStatus, resource = 'mine'): OutboxItem => ({
  id,
  idempotencyKey: `key-${id}`,
  kind: 'deposit.upload',
  summary: {},
  resource,
  request: { method: 'POST', path: '/x', headers: {}, body: { type: 'none' } },
  streamed: false,
  createdAt: 0,
  attempts: 0,
  nextAttemptAt: 0,
  status,
  size: 0,
});

const mine = (candidate: OutboxItem) => candidate.resource === 'mine';

function render(refresh: () => void) {
  const initialProps: { items: OutboxItem[] | undefined } = { items: undefined };
  return renderHook(({ items }) => useRefreshWhenApplied(items, mine, refresh), { initialProps });
}

describe('useRefreshWhenApplied', () => {
  it('refreshes when one more of its changes is applied, not for what was applied before the page read the outbox', () => {
    const refresh = vi.fn();
    const { rerender } = render(refresh);
    rerender({ items: [item(1, 'done'), item(2, 'queued')] });
    expect(refresh).not.toHaveBeenCalled();
    rerender({ items: [item(1, 'done'), item(2, 'done')] });
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('ignores the changes it is not concerned with and changes leaving the outbox', () => {
    const refresh = vi.fn();
    const { rerender } = render(refresh);
    rerender({ items: [item(1, 'done'), item(2, 'queued', 'other')] });
    rerender({ items: [item(1, 'done'), item(2, 'done', 'other')] });
    rerender({ items: [item(2, 'done', 'other')] });
    expect(refresh).not.toHaveBeenCalled();
  });
});
