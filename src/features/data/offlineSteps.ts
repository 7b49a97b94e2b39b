import type { ApplicationModel, DataEntry } from '@/domain/configuration/model';
import { keepFresh } from '@/offline/queryCache';
import type { OfflineStep } from '@/offline/offlineSteps';
import { keepReference } from '@/offline/referenceCache';
import { entryRowsKey, readEntryPage } from './hooks/useEntryRows';
import { firstPageQuery } from './hooks/useRowsQuery';

/**
 * What "Make available offline" keeps of the data: every reference whole (to browse it with any filter and check
 * files against it) and the page each table opens on, data types included.
 */
export function dataOfflineSteps(
  application: string,
  model: Pick<ApplicationModel, 'data'>,
  locale: string,
  titleOf: (entry: DataEntry) => string,
): OfflineStep[] {
  const query = firstPageQuery(locale);
  return model.data.map((entry) => ({
    label: titleOf(entry),
    keep: async () => {
      if (entry.kind === 'reference') await keepReference(application, entry.name);
      await keepFresh({
        queryKey: entryRowsKey(application, entry.name, query),
        read: (signal) => readEntryPage(application, entry, query, signal),
      });
    },
  }));
}
