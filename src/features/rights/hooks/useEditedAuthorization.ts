import { useEffect, useState } from 'react';
import type { AuthorizationRequest } from '@/domain/rights/authorization';
import { refusedChange } from '@/offline/refusedChange';

/** A refused authorization reopened from the pending changes: saving again replaces it. */
export interface EditedAuthorization {
  itemId: number;
  request: AuthorizationRequest;
}

/**
 * The refused save `itemId` names, once read from the device (undefined while reading, or when it is gone, or
 * when it is not of this application and authorization: `authorizationId` is 'new' for a new one).
 */
export function useEditedAuthorization(
  itemId: number | undefined,
  application: string,
  authorizationId: string,
): EditedAuthorization | undefined {
  const [edited, setEdited] = useState<EditedAuthorization>();
  useEffect(() => {
    if (itemId === undefined) return;
    void refusedChange(itemId).then((item) => {
      if (item?.kind !== 'authorization.save' || item.summary.name !== application) return;
      const request = item.input as AuthorizationRequest;
      if ((request.uuid ?? 'new') === authorizationId) setEdited({ itemId, request });
    });
  }, [itemId, application, authorizationId]);
  return edited;
}
