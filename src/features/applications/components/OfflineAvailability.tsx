import { useEffect, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { CloudDownload, HardDrive } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Progress } from '@/components/ui/progress';
import { translateServerError } from '@/lib/i18n/serverMessages';
import { showToast } from '@/lib/toast';
import { readSetting, writeSetting } from '@/offline/db';
import { keepStorage, storageState, type StorageState } from '@/offline/storage';
import { ApiError } from '@/lib/api/apiError';
import { cacheReferenceRows } from '@/offline/referenceCache';
import { downloadReferenceRows } from '@/lib/api/referenceRows';
import { loadApplication } from '../loadApplication';

const settingKey = (name: string) => `availableOffline:${name}`;

/** Downloads what the application needs to be used offline, and says how much room the device has. */
export function OfflineAvailability({
  applicationName,
  references,
}: {
  applicationName: string;
  references: string[];
}) {
  const { t, i18n } = useLingui();
  const [storage, setStorage] = useState<StorageState>({ persisted: false });
  const [progress, setProgress] = useState<number | undefined>();
  const [madeAvailableAt, setMadeAvailableAt] = useState<number | undefined>();

  useEffect(() => {
    void storageState().then(setStorage);
    void readSetting<number>(settingKey(applicationName)).then(setMadeAvailableAt);
  }, [applicationName]);

  const megabytes = (bytes: number | undefined) =>
    bytes === undefined ? '?' : i18n.number(bytes / 1_000_000, { maximumFractionDigits: 1 });

  async function makeAvailable() {
    setProgress(0);
    try {
      // The configuration first, then every reference the user may read, kept on the device.
      const steps: Array<() => Promise<unknown>> = [
        async () => {
          if ((await loadApplication(applicationName)).offlineSince) throw new ApiError(0, 'NETWORK_ERROR');
        },
        ...references.map(
          (reference) => async () =>
            cacheReferenceRows(applicationName, reference, await downloadReferenceRows(applicationName, reference)),
        ),
      ];
      for (const [index, step] of steps.entries()) {
        await step();
        setProgress((index + 1) / steps.length);
      }
      await keepStorage();
      const now = Date.now();
      await writeSetting(settingKey(applicationName), now);
      setMadeAvailableAt(now);
      setStorage(await storageState());
      showToast('success', t`The application is available offline on this device.`);
    } catch (error) {
      showToast('error', t`The application could not be made available offline.`, translateServerError(i18n, error));
    } finally {
      setProgress(undefined);
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-lg">
          <HardDrive className="size-5" aria-hidden />
          <Trans>Offline use</Trans>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3">
        <p className="text-sm text-muted-foreground" data-testid="storage-estimate">
          <Trans>
            This site uses {megabytes(storage.usedBytes)} MB of the {megabytes(storage.quotaBytes)} MB this device
            allows.
          </Trans>{' '}
          {storage.persisted ? (
            <Trans>The device keeps this data even when space runs low.</Trans>
          ) : (
            <Trans>The device may clear this data when space runs low.</Trans>
          )}
        </p>
        {madeAvailableAt ? (
          <p className="text-sm">
            <Trans>
              Made available offline on{' '}
              {i18n.date(new Date(madeAvailableAt), { dateStyle: 'medium', timeStyle: 'short' })}.
            </Trans>
          </p>
        ) : null}
        {progress !== undefined ? (
          <Progress value={progress} label={t`Downloading for offline use`} />
        ) : (
          <Button variant="outline" className="justify-self-start" onClick={() => void makeAvailable()}>
            <CloudDownload aria-hidden />
            <Trans>Make available offline</Trans>
          </Button>
        )}
      </CardContent>
    </Card>
  );
}
