import { Plural, Trans } from '@lingui/react/macro';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';

/** Asked before signing out while changes this person made are still on this device only. */
export function SignOutDialog({
  waiting,
  open,
  onCancel,
  onConfirm,
}: {
  waiting: number;
  open: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <ConfirmDialog
      open={open}
      onCancel={onCancel}
      onConfirm={onConfirm}
      title={<Trans>Log out while changes are waiting?</Trans>}
      description={
        <Plural
          value={waiting}
          one="# change you made on this device has not reached the server yet."
          other="# changes you made on this device have not reached the server yet."
        />
      }
      confirmLabel={<Trans>Log out</Trans>}
      cancelLabel={<Trans>Stay signed in</Trans>}
      variant="default"
    >
      <p className="text-sm">
        <Trans>
          They stay on this device and are sent the next time you sign in here. Nobody else can send them, and they are
          lost if this browser's data is cleared.
        </Trans>
      </p>
    </ConfirmDialog>
  );
}
