import { useLingui } from '@lingui/react/macro';
import type { FileOperation } from '@/domain/additionalFiles/authorization';

/** The names of the rights on additional files, as the authorization screens show them (nouns, not actions). */
export function useOperationLabels(): Record<FileOperation, string> {
  const { t } = useLingui();
  return {
    admin: t({ message: 'Administration', context: 'right on additional files' }),
    depot: t({ message: 'Deposit', context: 'right on additional files' }),
    extraction: t({ message: 'Download', context: 'right on additional files' }),
    delete: t({ message: 'Deletion', context: 'right on additional files' }),
  };
}
