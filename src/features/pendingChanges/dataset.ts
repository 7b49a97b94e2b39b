import { naturalKeyOfHierarchicalKey } from '@/domain/rows/cellText';
import type { OutboxItem, OutboxKind } from '@/offline/outboxTypes';

const DEPOSIT_KINDS: ReadonlySet<OutboxKind> = new Set(['deposit.upload', 'deposit.publish', 'deposit.delete']);

/** The natural keys of a scope's rows (`projectsKalps` → `alps`), as the deposit form lists them. */
function scopeKeys(scope: string | undefined): string[] {
  try {
    const parsed: unknown = JSON.parse(scope ?? '{}');
    return parsed && typeof parsed === 'object'
      ? Object.values(parsed).map((key) => naturalKeyOfHierarchicalKey(String(key)))
      : [];
  } catch {
    return []; // An imported file's summary is not trusted to hold JSON: the change is still named without it.
  }
}

/**
 * The dataset a deposit change goes to, in words: its scope's keys, then its period's days (`formatDay` writes a
 * `YYYY-MM-DD` day); two deposits of one file name into one data type differ only there. Undefined for other changes, and for deposits kept before their publication
 * and deletion recorded it (or of a data type with neither scope nor period).
 */
export function datasetOf(
  item: Pick<OutboxItem, 'kind' | 'summary'>,
  formatDay: (day: string) => string,
): string | undefined {
  if (!DEPOSIT_KINDS.has(item.kind)) return undefined;
  const { from, to, period } = item.summary;
  // Deposits kept before the period's days were recorded carry it as text ("from – to").
  const days = from ? `${formatDay(from)} – ${formatDay(to)}` : period;
  return [...scopeKeys(item.summary.scope), days].filter(Boolean).join(' · ') || undefined;
}
