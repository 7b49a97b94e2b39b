import { useState } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { LogOut, Tablet } from 'lucide-react';
import type { KeptDevice } from '@/contract/accounts';
import { OfflineNotice } from '@/components/layout/OfflineNotice';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { translateServerError } from '@/lib/i18n/serverMessages';
import { showToast } from '@/lib/toast';
import { useKeptQuery } from '@/offline/useKeptQuery';
import { setCurrentUser } from '@/offline/currentUser';
import { endDeviceSession, fetchKeptDevices } from '../api';

/** The devices kept signed in (sign-in with "Keep me signed in"), each of which can be signed out from here. */
export function KeptDevices() {
  const { t, i18n } = useLingui();
  const { data, error, offlineSince, reload } = useKeptQuery(['me', 'devices'], fetchKeptDevices);
  const [ending, setEnding] = useState<KeptDevice | null>(null);
  const navigate = useNavigate();
  const date = (iso: string) => i18n.date(new Date(iso), { dateStyle: 'medium', timeStyle: 'short' });

  async function end(device: KeptDevice) {
    setEnding(null);
    try {
      await endDeviceSession(device.id);
      if (device.current) {
        // Signed out here as by the menu: this device forgets the user now.
        setCurrentUser(null);
        return void navigate({ to: '/login', search: { loggedOut: true } });
      }
      showToast('success', t`The device is signed out.`);
    } catch (reason) {
      showToast('error', t`The device could not be signed out.`, translateServerError(i18n, reason));
    }
    reload();
  }

  if (error) return <Alert variant="destructive">{translateServerError(i18n, error)}</Alert>;
  if (!data) return null;
  return (
    <div className="grid gap-3">
      {offlineSince ? <OfflineNotice fetchedAt={offlineSince} /> : null}
      {data.devices.length === 0 ? (
        <p className="text-muted-foreground">
          <Trans>
            No device is kept signed in. Check “Keep me signed in on this device” when signing in on a tablet taken to
            the field.
          </Trans>
        </p>
      ) : (
        <ul className="grid gap-3" aria-label={t`Devices kept signed in`}>
          {data.devices.map((device) => (
            <li
              key={device.id}
              className="flex flex-wrap items-center justify-between gap-3 rounded-md border p-3"
              data-testid="kept-device"
            >
              <div className="grid gap-1">
                <p className="flex flex-wrap items-center gap-2 font-medium">
                  <Tablet className="size-5" aria-hidden />
                  {device.device ?? t`Unknown browser`}
                  {device.current ? <Badge>{t`This device`}</Badge> : null}
                </p>
                <p className="text-sm text-muted-foreground">
                  <Trans>
                    Signed in on {date(device.createdAt)} · kept until {date(device.expiresAt)} unless used
                  </Trans>
                </p>
              </div>
              <Button variant="outline" onClick={() => setEnding(device)} disabled={offlineSince !== undefined}>
                <LogOut aria-hidden />
                <Trans>Sign out this device</Trans>
              </Button>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={ending !== null}
        onCancel={() => setEnding(null)}
        onConfirm={() => ending && void end(ending)}
        title={<Trans>Sign out this device?</Trans>}
        description={ending?.device ?? t`Unknown browser`}
        confirmLabel={<Trans>Sign out</Trans>}
        variant="destructive"
      >
        <p>
          {ending?.current ? (
            <Trans>This is the device you are using: you will have to sign in again.</Trans>
          ) : (
            <Trans>
              Its next request is refused; changes waiting on it are sent once someone signs in there again.
            </Trans>
          )}
        </p>
      </ConfirmDialog>
    </div>
  );
}
