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
import { keepForOffline, type OfflineStep } from '@/offline/offlineSteps';
import { loadApplication } from '../loadApplication';

const settingKey = (name: string) => `availableOffline:${name}`;

/** When the application was last made available offline, and what the server would not let this device keep. */
interface MadeAvailable {
  at: number;
  /** What was not kept, with the server's reason (translated when shown). */
  skipped: Array<{ label: string; reason: { status: number; code: string; params: ApiError['params'] } }>;
}

/** Reads the setting, also in the form it had before skipped parts were recorded (the date alone). */
async function readMadeAvailable(name: string): Promise<MadeAvailable | undefined> {
  const stored = await readSetting<MadeAvailable | number>(settingKey(name));
  return typeof stored === 'number' ? { at: stored, skipped: [] } : stored;
}

const reasonOf = (error: unknown) =>
  error instanceof ApiError
    ? { status: error.status, code: error.code, params: error.params }
    : { status: 500, code: 'INTERNAL_ERROR', params: {} };

/**
 * Keeps on the device what the application needs to be used offline (the steps the page composes: tables, lists,
 * forms), names what the server would not let it keep, and says how much room the device has.
 */
export function OfflineAvailability({
  applicationName,
  steps,
}: {
  applicationName: string;
  steps: () => OfflineStep[];
}) {
  const { t, i18n } = useLingui();
  const [storage, setStorage] = useState<StorageState>({ persisted: false });
  const [progress, setProgress] = useState<number | undefined>();
  const [madeAvailable, setMadeAvailable] = useState<MadeAvailable | undefined>();

  useEffect(() => {
    void storageState().then(setStorage);
    void readMadeAvailable(applicationName).then(setMadeAvailable);
  }, [applicationName]);

  const megabytes = (bytes: number | undefined) =>
    bytes === undefined ? '?' : i18n.number(bytes / 1_000_000, { maximumFractionDigits: 1 });

  async function makeAvailable() {
    setProgress(0);
    try {
      // The application itself first: without it nothing else opens offline.
      if ((await loadApplication(applicationName)).offlineSince) throw new ApiError(0, 'NETWORK_ERROR');
      const skipped = await keepForOffline(steps(), setProgress);
      await keepStorage();
      const made = {
        at: Date.now(),
        skipped: skipped.map((step) => ({ label: step.label, reason: reasonOf(step.error) })),
      };
      await writeSetting(settingKey(applicationName), made);
      setMadeAvailable(made);
      setStorage(await storageState());
      if (skipped.length === 0) showToast('success', t`The application is available offline on this device.`);
      else
        showToast(
          'warning',
          t`The application is available offline on this device, except what the server refused.`,
          made.skipped.map((step) => step.label).join(', '),
        );
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
        {madeAvailable ? (
          <p className="text-sm">
            <Trans>
              Made available offline on{' '}
              {i18n.date(new Date(madeAvailable.at), { dateStyle: 'medium', timeStyle: 'short' })}.
            </Trans>
          </p>
        ) : null}
        {madeAvailable?.skipped.length ? (
          <div className="text-sm" data-testid="offline-skipped">
            <p>
              <Trans>Not kept on this device, because the server refused them:</Trans>
            </p>
            <ul className="list-disc ps-5">
              {madeAvailable.skipped.map(({ label, reason }) => (
                <li key={label}>
                  {label} — {translateServerError(i18n, new ApiError(reason.status, reason.code, reason.params))}
                </li>
              ))}
            </ul>
          </div>
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
