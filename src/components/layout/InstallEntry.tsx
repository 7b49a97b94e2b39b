import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { MonitorDown, Share } from 'lucide-react';
import { DropdownMenuItem } from '@/components/ui/dropdown-menu';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { promptInstall, useInstallState } from '@/lib/install';

/** A menu entry that installs the portal on the home screen, or explains how on iPhone and iPad. */
export function InstallEntry() {
  const { t } = useLingui();
  const { canPrompt, showIosSteps } = useInstallState();
  const [stepsOpen, setStepsOpen] = useState(false);
  if (!canPrompt && !showIosSteps) return null;
  return (
    <>
      <DropdownMenuItem onSelect={() => (canPrompt ? void promptInstall() : setStepsOpen(true))}>
        <MonitorDown aria-hidden />
        <Trans>Install Terrain</Trans>
      </DropdownMenuItem>
      <Dialog open={stepsOpen} onOpenChange={setStepsOpen}>
        <DialogContent closeLabel={t`Close`}>
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
    </>
  );
}
