import { Trans, useLingui } from '@lingui/react/macro';
import { Share } from 'lucide-react';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';

/** How to add the portal to the Home Screen in Safari on iPhone and iPad, which has no install prompt. */
export function IosInstallSteps({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useLingui();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent closeLabel={t`Close`} data-testid="ios-install-steps">
        <DialogHeader>
          <DialogTitle>
            <Trans>Add Terrain to the Home Screen</Trans>
          </DialogTitle>
          <DialogDescription>
            <Trans>Terrain then opens like an app, and works without network.</Trans>
          </DialogDescription>
        </DialogHeader>
        <ol className="list-decimal space-y-2 pl-6">
          <li>
            <Trans>
              Tap the Share button <Share className="inline size-5 align-text-bottom" aria-hidden /> of Safari.
            </Trans>
          </li>
          <li>
            <Trans>Choose “Add to Home Screen”.</Trans>
          </li>
          <li>
            <Trans>Tap “Add”.</Trans>
          </li>
        </ol>
      </DialogContent>
    </Dialog>
  );
}
