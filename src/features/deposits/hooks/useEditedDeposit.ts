import { useEffect, useState } from 'react';
import { refusedChange } from '@/offline/refusedChange';
import type { DatasetChoice } from '../api';

/** A refused deposit reopened from the pending changes: depositing again replaces it. */
export interface EditedDeposit {
  itemId: number;
  file: File;
  dataset: DatasetChoice;
  comment: string;
}

/** The refused deposit `itemId` names, once read from the device (undefined while reading, or when it is gone). */
export function useEditedDeposit(itemId: number | undefined, dataType: string): EditedDeposit | undefined {
  const [edited, setEdited] = useState<EditedDeposit>();
  useEffect(() => {
    if (itemId === undefined) return;
    void refusedChange(itemId).then((item) => {
      if (item?.kind !== 'deposit.upload') return;
      const input = item.input as { dataType: string; file: File; dataset: DatasetChoice; comment: string };
      if (input.dataType === dataType)
        setEdited({ itemId, file: input.file, dataset: input.dataset, comment: input.comment });
    });
  }, [itemId, dataType]);
  return edited;
}
