import type { OutboxItem, OutboxKind } from '@/offline/outboxTypes';

const DEPOSIT_KINDS: ReadonlySet<OutboxKind> = new Set(['deposit.upload', 'deposit.publish', 'deposit.delete']);

function scopeKeys(scope: string | undefined): string[] {
  try {
    const parsed: unknown = JSON.parse(scope ?? '{}');
    return parsed && typeof parsed === 'object' ? Object.values(parsed).map(String) : [];
  } catch {
    return []; // An imported file's summary is not trusted to hold JSON: the change is still named without it.
  }
}

/**
 * The dataset a deposit change goes to, in words: its scope's keys, then its period; two deposits of one file name
 * into one data type differ only there. Undefined for other changes, and for deposits kept before their publication
 * and deletion recorded it (or of a data type with neither scope nor period).
 */
export function datasetOf(item: Pick<OutboxItem, 'kind' | 'summary'>): string | undefined {
  if (!DEPOSIT_KINDS.has(item.kind)) return undefined;
  return [...scopeKeys(item.summary.scope), item.summary.period].filter(Boolean).join(' · ') || undefined;
}
