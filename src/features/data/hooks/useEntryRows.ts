import type { DataEntry } from '@/domain/configuration/model';
import { answerValues } from '@/domain/rows/answerValues';
import { filterRows } from '@/domain/rows/filterRows';
import type { RowQuery } from '@/domain/rows/rowQuery';
import { cachedReferenceRows } from '@/offline/referenceCache';
import { isUnreachable } from '@/offline/queryCache';
import { useKeptQuery } from '@/offline/useKeptQuery';
import type { ReferencePage, RowView } from '@/contract/rows';
import { fetchEntryPage } from '../api';

type EntryPage = Pick<ReferencePage, 'referenceValues' | 'totalRows'>;

export interface EntryRowsState {
  page?: EntryPage;
  loading: boolean;
  error?: unknown;
  /** Answered from what the device kept (this page as seen, or the whole table), fetched at that time. */
  offlineSince?: number;
  /** `page` is the table's previous page, shown while the asked one is read. */
  updating: boolean;
  reload(): void;
}

/** A page computed on the device from the whole table it keeps, with when that copy was fetched. */
interface ComputedPage extends EntryPage {
  keptAt: number;
}

/**
 * One page of rows of a reference or a data type for a query, through the read cache: a page seen before opens
 * offline as it was. A page never seen of a reference the device keeps whole is computed from that copy with the
 * same filters. With `keepPreviousPage`, the table's previous page stays while the next is read (`updating`).
 */
export function useEntryRows(
  applicationName: string,
  entry: DataEntry | undefined,
  query: RowQuery,
  { keepPreviousPage = false } = {},
): EntryRowsState {
  const key = entryRowsKey(applicationName, entry?.name ?? '', query);
  const read = useKeptQuery<EntryPage | ComputedPage>(key, (signal) => readEntryPage(applicationName, entry!, query, signal), {
    enabled: entry !== undefined,
    // Another page, order or filter of the same table: its rows stay on screen until the next ones come.
    keepPreviousWhile: keepPreviousPage ? (previous) => previous[1] === key[1] && previous[3] === key[3] : undefined,
  });
  const keptAt = read.data && 'keptAt' in read.data ? read.data.keptAt : undefined;
  return {
    page: read.data,
    loading: read.loading,
    updating: read.updating,
    error: read.error,
    offlineSince: read.offlineSince ?? keptAt,
    reload: read.reload,
  };
}

/** Where the cache keeps a page of rows of an entry for a query. */
export const entryRowsKey = (application: string, entry: string, query: RowQuery) =>
  ['application', application, 'rows', entry, query] as const;

/** A page from the server, or, out of its reach, computed from the whole table the device keeps (references). */
export async function readEntryPage(
  application: string,
  entry: DataEntry,
  query: RowQuery,
  signal?: AbortSignal,
): Promise<EntryPage | ComputedPage> {
  try {
    const { referenceValues, totalRows } = await fetchEntryPage(application, entry, query, signal);
    return { referenceValues, totalRows };
  } catch (error) {
    const computed = isUnreachable(error) ? await pageFromKeptTable(application, entry, query) : undefined;
    if (!computed) throw error;
    return computed;
  }
}

async function pageFromKeptTable(application: string, entry: DataEntry, query: RowQuery): Promise<ComputedPage | undefined> {
  if (entry.kind !== 'reference') return undefined;
  const kept = await cachedReferenceRows(application, entry.name);
  if (!kept) return undefined;
  const targets = new Map<string, Map<string, string>>();
  for (const component of entry.components) {
    if (component.checker?.kind !== 'reference' || targets.has(component.checker.reference)) continue;
    const rows = (await cachedReferenceRows(application, component.checker.reference))?.rows ?? [];
    targets.set(component.checker.reference, new Map(rows.map((r) => [r.naturalKey, r.hierarchicalKey])));
  }
  const hierarchicalKeysOf = (reference: string, naturalKeys: string[]) => {
    const known = targets.get(reference);
    return new Set(naturalKeys.map((k) => known?.get(k)).filter((k): k is string => k !== undefined));
  };
  const { rows, totalRows } = filterRows(entry, kept.rows, query, hierarchicalKeysOf);
  const referenceValues = rows.map(
    (row) => ({ ...row, ...answerValues(entry, row.values), __display_default: row.naturalKey }) as RowView,
  );
  return { referenceValues, totalRows, keptAt: kept.fetchedAt };
}
