import { Trans } from '@lingui/react/macro';
import { HardDrive } from 'lucide-react';
import { Alert } from '@/components/ui/alert';
import { useDeviceDataProblem } from '@/offline/deviceData';

/**
 * Says that this device's data (pending changes, copies kept for offline use) could not be opened, why when known,
 * and what to do; Terrain meanwhile works online, without them.
 */
export function DeviceDataNotice() {
  const problem = useDeviceDataProblem();
  if (!problem) return null;
  return (
    <div className="p-2">
      <Alert variant="destructive" className="flex items-start gap-2" data-testid="device-data-notice">
        <HardDrive aria-hidden className="mt-0.5 shrink-0" />
        <span>
          {problem === 'full' ? (
            <Trans>
              This device has no room left: Terrain cannot open the data it keeps here (pending changes, copies for
              offline use). Free some space, then reload the page. Meanwhile Terrain works online only.
            </Trans>
          ) : (
            <Trans>
              Terrain cannot open this device's data (pending changes, copies for offline use). Free some space, close
              Terrain's other tabs and reload the page; if it goes on, restart the browser. Meanwhile Terrain works
              online only.
            </Trans>
          )}
        </span>
      </Alert>
    </div>
  );
}
