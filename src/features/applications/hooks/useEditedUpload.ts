import { useEffect, useState } from 'react';
import { refusedChange } from '@/offline/refusedChange';
import type { ConfigurationUploadInput } from '../outboxRequests';

/** The input of a queued configuration upload reopened for editing, once read from the device. */
export function useEditedUpload(itemId: number | undefined): {
  ready: boolean;
  edit?: { itemId: number; input: ConfigurationUploadInput };
} {
  const [state, setState] = useState<{ ready: boolean; edit?: { itemId: number; input: ConfigurationUploadInput } }>({
    ready: itemId === undefined,
  });
  useEffect(() => {
    if (itemId === undefined) return;
    void refusedChange(itemId).then((item) => {
      const input = item?.input as ConfigurationUploadInput | undefined;
      setState({ ready: true, edit: item && input ? { itemId, input } : undefined });
    });
  }, [itemId]);
  return state;
}
