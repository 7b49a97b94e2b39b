import { useEffect, useState } from 'react';
import type { RightsRequestBody } from '@/contract/rightsRequests';
import { refusedChange } from '@/offline/refusedChange';

/** A refused rights request (asked or modified) reopened from the pending changes: sending again replaces it. */
export interface EditedRightsRequest {
  itemId: number;
  body: RightsRequestBody;
}

/**
 * The refused request `itemId` names, once read from the device (undefined while reading, or when it is gone, or
 * when it is not this application's request `requestId`, 'new' for a new one). Grants and closings are not edited.
 */
export function useEditedRightsRequest(
  itemId: number | undefined,
  application: string,
  requestId: string,
): EditedRightsRequest | undefined {
  const [edited, setEdited] = useState<EditedRightsRequest>();
  useEffect(() => {
    if (itemId === undefined) return;
    void refusedChange(itemId).then((item) => {
      if (item?.kind !== 'rightsRequest.save' || item.summary.name !== application) return;
      if (item.summary.action !== 'ask' && item.summary.action !== 'modify') return;
      const body = item.input as RightsRequestBody;
      if ((body.id ?? 'new') === requestId) setEdited({ itemId, body });
    });
  }, [itemId, application, requestId]);
  return edited;
}
