import { useLiveQuery } from 'dexie-react-hooks';
import { Trans, useLingui } from '@lingui/react/macro';
import { Card, CardContent } from '@/components/ui/card';
import { CHANGES_KEPT_SINCE_SETTING, readSetting } from '@/offline/db';
import { useDeviceDataProblem, withoutDeviceData } from '@/offline/deviceData';

/**
 * An empty list says what the device knows, not more: a change made before its list began (the site's data
 * cleared, another browser, another device) is not known here, sent or not.
 */
export function NothingWaiting() {
  const { i18n } = useLingui();
  const since = useLiveQuery(
    () => readSetting<number>(CHANGES_KEPT_SINCE_SETTING).catch(withoutDeviceData(undefined)),
    [],
  );
  // Without the device's data nothing is known of what waits: the notice at the top of the page says why.
  const unknown = useDeviceDataProblem() !== undefined;
  if (unknown) return null;
  const date = since === undefined ? undefined : i18n.date(new Date(since), { dateStyle: 'long', timeStyle: 'short' });
  return (
    <Card>
      <CardContent className="grid gap-2 py-8 text-center" data-testid="nothing-waiting" data-since={since}>
        <p className="font-medium">
          <Trans>Nothing is waiting on this device.</Trans>
        </p>
        {date ? (
          <p className="text-sm text-muted-foreground">
            <Trans>
              This device has kept its changes here since {date}. A change made before, in another browser or on another
              device, is not known here: if its data was cleared, import the file you saved, if any.
            </Trans>
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}
