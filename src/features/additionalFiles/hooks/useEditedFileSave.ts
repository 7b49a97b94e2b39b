import { useEffect, useState } from 'react';
import type { Associates } from '@/domain/additionalFiles/associates';
import { refusedChange } from '@/offline/refusedChange';

/** What the file form sent (its own values, checked), as the outbox keeps it. */
export interface SentFileForm {
  fileType: string;
  id: string | null;
  fileName: string;
  comment: string;
  fields: Record<string, string>;
  associates: Associates;
  forApplication: boolean;
  file: File | null;
}

/** A refused save of an additional file reopened from the pending changes: saving again replaces it. */
export interface EditedFileSave {
  itemId: number;
  input: SentFileForm;
}

/**
 * The refused save `itemId` names, once read from the device: `ready` turns true when it is read, `edit` is
 * undefined when it is gone or is not a save of this application, file type and file (`fileId` 'new' for a new one).
 */
export function useEditedFileSave(
  itemId: number | undefined,
  application: string,
  fileType: string,
  fileId: string,
): { ready: boolean; edit?: EditedFileSave } {
  const [state, setState] = useState<{ ready: boolean; edit?: EditedFileSave }>({ ready: itemId === undefined });
  useEffect(() => {
    if (itemId === undefined) return;
    void refusedChange(itemId).then((item) => {
      const input = item?.input as SentFileForm | undefined;
      const matches =
        item?.kind === 'additionalFile.save' &&
        item.summary.name === application &&
        input?.fileType === fileType &&
        (input.id ?? 'new') === fileId;
      setState({ ready: true, edit: matches ? { itemId, input } : undefined });
    });
  }, [itemId, application, fileType, fileId]);
  return state;
}
