import type { DataEntry } from '@/domain/configuration/model';
import { readsStep } from '@/offline/readsStep';
import type { OfflineStep } from '@/offline/offlineSteps';
import { versionsRead } from './api';

/** The dataset the deposits page shows as it opens: no scope chosen yet. */
const OPENING_SCOPE: Record<string, string> = {};

/**
 * What "Make available offline" keeps of the deposits of an application: the versions the deposits page of a data
 * type shows as it opens, under the key it reads them. Only a type deposited without reference scopes shows them
 * then (its one dataset); the others wait for a dataset to be chosen, whose scope rows are the reference tables the
 * device keeps anyway. `labelOf` names a type as the person knows it (the caller translates).
 */
export function depositsOfflineSteps(
  applicationName: string,
  entries: ReadonlyArray<Pick<DataEntry, 'name' | 'submission'>>,
  labelOf: (entry: Pick<DataEntry, 'name'>) => string,
): OfflineStep[] {
  return entries
    .filter((entry) => entry.submission.strategy === 'OA_VERSIONING' && entry.submission.referenceScopes.length === 0)
    .map((entry) => readsStep(labelOf(entry), [versionsRead(applicationName, entry.name, OPENING_SCOPE)]));
}
