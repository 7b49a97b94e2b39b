import { useEffect, useState } from 'react';
import { Trans } from '@lingui/react/macro';
import { HardDrive } from 'lucide-react';
import { storageState } from '@/offline/storage';

/**
 * Whether the browser promised to keep the changes waiting on this device: until they are sent they exist nowhere
 * else, and a browser short of space may clear a site's data unless it promised not to. Read again whenever the
 * number of waiting changes moves (the outbox asks for the promise when it keeps a change).
 */
export function StorageNote({ waiting }: { waiting: number }) {
  const [persisted, setPersisted] = useState<boolean>();
  useEffect(() => {
    let current = true;
    void storageState().then((state) => current && setPersisted(state.persisted));
    return () => {
      current = false;
    };
  }, [waiting]);
  if (waiting === 0 || persisted === undefined) return null;
  return (
    <p
      className="flex items-start gap-2 text-sm text-muted-foreground"
      data-testid="storage-note"
      data-persisted={persisted}
    >
      <HardDrive className="mt-0.5 size-4 shrink-0" aria-hidden />
      {persisted ? (
        <Trans>This browser keeps these changes even when the device runs short of space.</Trans>
      ) : (
        <Trans>
          This browser may clear these changes if the device runs short of space: send them as soon as you can.
          Installing Terrain on this device lets the browser keep them.
        </Trans>
      )}
    </p>
  );
}
