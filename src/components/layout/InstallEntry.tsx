import { Trans } from '@lingui/react/macro';
import { MonitorDown } from 'lucide-react';
import { DropdownMenuItem } from '@/components/ui/dropdown-menu';
import { promptInstall, useInstallState } from '@/lib/install';

/**
 * A menu entry that installs the portal on the home screen, or asks for the steps on iPhone and iPad. The steps'
 * dialog lives in the layout, not here: the menu unmounts its items as it closes, which took a dialog inside it along.
 */
export function InstallEntry({ onShowIosSteps }: { onShowIosSteps: () => void }) {
  const { canPrompt, showIosSteps } = useInstallState();
  if (!canPrompt && !showIosSteps) return null;
  return (
    <DropdownMenuItem onSelect={() => (canPrompt ? void promptInstall() : onShowIosSteps())}>
      <MonitorDown aria-hidden />
      <Trans>Install Terrain</Trans>
    </DropdownMenuItem>
  );
}
