import { Trans, useLingui } from '@lingui/react/macro';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import type { RightsRequestView } from '../requestsApi';

/** A request's comment whole, with the answer of whoever treated it. */
export function RequestCommentDialog({ request, onClose }: { request: RightsRequestView | null; onClose: () => void }) {
  const { t, i18n } = useLingui();
  return (
    <Dialog open={request !== null} onOpenChange={(value) => !value && onClose()}>
      <DialogContent closeLabel={t`Close`}>
        <DialogHeader>
          <DialogTitle>
            <Trans>Comment of {request?.userLogin}</Trans>
          </DialogTitle>
          <DialogDescription>
            {request ? i18n.date(new Date(request.createDate), { dateStyle: 'short', timeStyle: 'short' }) : null}
          </DialogDescription>
        </DialogHeader>
        <p className="whitespace-pre-wrap break-words">{request?.comment}</p>
        {request?.treatmentComment ? (
          <div>
            <p className="font-medium">
              <Trans>Answer of {request.treatedByLogin}</Trans>
            </p>
            <p className="whitespace-pre-wrap break-words">{request.treatmentComment}</p>
          </div>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
