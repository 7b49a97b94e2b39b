import type { ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from './button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from './dialog';

export interface ConfirmDialogProps {
  open: boolean;
  /** Closing by any way but the confirm button: cancel, the close button, Escape, a tap outside. */
  onCancel: () => void;
  onConfirm: () => void;
  title: ReactNode;
  description?: ReactNode;
  /** What else to know before confirming (a warning, a field), between the title and the buttons. */
  children?: ReactNode;
  confirmLabel: ReactNode;
  /** "Cancel" unless the page names staying otherwise. */
  cancelLabel?: ReactNode;
  /** Destructive unless confirming only sends something. */
  variant?: 'destructive' | 'default';
  confirmDisabled?: boolean;
}

/** The one way a page asks "are you sure?" before it deletes, revokes, discards or sends. */
export function ConfirmDialog({
  open,
  onCancel,
  onConfirm,
  title,
  description,
  children,
  confirmLabel,
  cancelLabel,
  variant = 'destructive',
  confirmDisabled,
}: ConfirmDialogProps) {
  const { t } = useLingui();
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onCancel()}>
      {/* Without a description, Radix is told there is none rather than left pointing at nothing. */}
      <DialogContent closeLabel={t`Close`} {...(description ? {} : { 'aria-describedby': undefined })}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          {description ? <DialogDescription>{description}</DialogDescription> : null}
        </DialogHeader>
        {children}
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">{cancelLabel ?? <Trans>Cancel</Trans>}</Button>
          </DialogClose>
          <Button variant={variant} disabled={confirmDisabled} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
