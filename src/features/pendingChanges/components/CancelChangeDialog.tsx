import { Trans, useLingui } from '@lingui/react/macro';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { describeChange } from '@/offline/describeChange';
import { outbox } from '@/offline/outboxInstance';
import type { OutboxItem } from '@/offline/outboxTypes';
import { showToast } from '@/lib/toast';

interface CancelChangeDialogProps {
  /** The waiting change to cancel, or null when the dialog is closed. */
  item: OutboxItem | null;
  onClose: () => void;
}

/** Asks before withdrawing a change that waits to be sent; says so when sending began in the meantime. */
export function CancelChangeDialog({ item, onClose }: CancelChangeDialogProps) {
  const { t, i18n } = useLingui();

  async function cancel(id: number) {
    onClose();
    // The outbox refuses once a pass has begun sending it: the server may already be applying it.
    if (!(await outbox.cancel(id))) showToast('warning', t`It is already being sent: it can no longer be cancelled.`);
  }

  return (
    <ConfirmDialog
      open={item !== null}
      onCancel={onClose}
      onConfirm={() => item && void cancel(item.id!)}
      title={<Trans>Cancel this change?</Trans>}
      description={item ? describeChange(i18n, item) : null}
      confirmLabel={<Trans>Cancel the change</Trans>}
      cancelLabel={<Trans>Keep it</Trans>}
    >
      <p data-testid="cancel-consequence">
        {item?.mayHaveArrived ? (
          <Trans>
            A send of it got no answer: the server may have applied it already. Cancelling stops it being sent again but
            does not undo it there; check on the server before doing it again.
          </Trans>
        ) : (
          <Trans>It has not reached the server yet: it will not be sent and cannot be recovered.</Trans>
        )}
      </p>
    </ConfirmDialog>
  );
}
