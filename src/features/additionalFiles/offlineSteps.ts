import { readsStep } from '@/offline/readsStep';
import type { OfflineStep } from '@/offline/offlineSteps';
import { overviewRead } from './api';
import { fileFormOptionsRead } from './hooks/useFileFormData';
import { firstFilesPageRead } from './hooks/useFilesList';

/** A type of additional files, and what the person knows it as (the caller translates). */
export interface FileTypeLabel {
  name: string;
  label: string;
}

/**
 * What "Make available offline" keeps of the additional files of an application, under the keys their screens read:
 * the types with their counts (labelled `labels.files`), then per type its first page as its list opens and the
 * choices and names its file form checks against. An application without additional files has none.
 */
export function additionalFilesOfflineSteps(
  applicationName: string,
  fileTypes: readonly FileTypeLabel[],
  labels: { files: string },
): OfflineStep[] {
  if (fileTypes.length === 0) return [];
  return [
    readsStep(labels.files, [overviewRead(applicationName)]),
    ...fileTypes.map((type) =>
      readsStep(type.label, [
        firstFilesPageRead(applicationName, type.name),
        fileFormOptionsRead(applicationName, type.name),
      ]),
    ),
  ];
}
