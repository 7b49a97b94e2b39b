import { useEffect, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { HardDrive, TriangleAlert } from 'lucide-react';
import { isNearlyFull, storageState, type StorageState } from '@/offline/storage';

/**
 * Whether the browser promised to keep the changes waiting on this device, and whether the device is nearly full:
 * until they are sent they exist nowhere else, and a browser short of space may clear a site's data unless it
 * promised not to. Read again whenever the number of waiting changes moves (the outbox asks for the promise when it
 * keeps a change).
 */
export function StorageNote({ waiting }: { waiting: number }) {
  const { i18n } = useLingui();
  const [state, setState] = useState<StorageState>();
  useEffect(() => {
    let current = true;
    void storageState().then((next) => current && setState(next));
    return () => {
      current = false;
    };
  }, [waiting]);
  if (waiting === 0 || state === undefined) return null;
  const megabytes = (bytes = 0) => i18n.number(bytes / 1e6, { maximumFractionDigits: 0 });
  const used = megabytes(state.usedBytes);
  const quota = megabytes(state.quotaBytes);
  return (
    <div className="grid gap-2 text-sm">
      {isNearlyFull(state) ? (
        <p className="flex items-start gap-2 font-medium text-destructive" role="alert" data-testid="storage-pressure">
          <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
          <Trans>
            This device is nearly full ({used} MB of {quota} MB used): send the waiting changes, or save them to a file,
            before it refuses new ones.
          </Trans>
        </p>
      ) : null}
      <p
        className="flex items-start gap-2 text-muted-foreground"
        data-testid="storage-note"
        data-persisted={state.persisted}
      >
        <HardDrive className="mt-0.5 size-4 shrink-0" aria-hidden />
        {state.persisted ? (
          <Trans>This browser keeps these changes even when the device runs short of space.</Trans>
        ) : (
          <Trans>
            This browser may clear these changes if the device runs short of space: send them as soon as you can, or
            save them to a file. Installing Terrain on this device lets the browser keep them.
          </Trans>
        )}
      </p>
    </div>
  );
}
