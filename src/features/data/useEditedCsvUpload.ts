import { useEffect, useState } from 'react';
import { refusedChange } from '@/offline/refusedChange';

/** A refused CSV upload reopened from the pending changes: saving a new file replaces it. */
export interface EditedCsvUpload {
  itemId: number;
  /** The reference or data type it loads into. */
  entryName: string;
  fileName: string;
}

/** The refused upload `itemId` names, once read from the device (undefined while reading, or when it is gone). */
export function useEditedCsvUpload(itemId: number | undefined): EditedCsvUpload | undefined {
  const [edited, setEdited] = useState<EditedCsvUpload>();
  useEffect(() => {
    if (itemId === undefined) return;
    void refusedChange(itemId).then((item) => {
      const input = item?.kind === 'reference.upload' ? (item.input as { reference: string; file: File }) : undefined;
      if (input) setEdited({ itemId, entryName: input.reference, fileName: input.file.name });
    });
  }, [itemId]);
  return edited;
}
