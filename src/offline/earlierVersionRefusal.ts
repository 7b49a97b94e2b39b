import { RUNNING_BUILD } from '@/lib/build';
import type { OutboxItem } from './outboxTypes';

/**
 * Whether a refused change is one an earlier version of Terrain prepared, in a shape the server no longer accepts:
 * a request the server's schema refuses (400 BAD_REQUEST) or an address it no longer serves (404 NOT_FOUND, not a
 * missing application or row, which have their own codes). Sent again as it is, it would be refused again: the
 * person redoes it instead. A change with no build recorded was queued before builds were: by an earlier version.
 */
export function refusedAsEarlierVersion(item: OutboxItem, runningBuild: string = RUNNING_BUILD): boolean {
  const error = item.lastError;
  if (item.status !== 'needs-attention' || !error || item.build === runningBuild) return false;
  return (error.status === 400 && error.code === 'BAD_REQUEST') || (error.status === 404 && error.code === 'NOT_FOUND');
}
