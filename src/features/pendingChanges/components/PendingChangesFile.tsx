import { useState } from 'react';
import { plural } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Download, Upload } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { showToast } from '@/lib/toast';
import { saveFile } from '@/lib/saveFile';
import { offlineDb } from '@/offline/db';
import type { OutboxItem } from '@/offline/outboxTypes';
import { exportPendingChanges, importPendingChanges, readPendingChangesFile } from '@/offline/pendingChangesFile';
import { describeChange } from '@/offline/describeChange';

/**
 * How long the server remembers an idempotency key (server/http/idempotency.ts: its answer a day, the key 90 days
 * more): past it, a resend is a new change.
 */
const KEYS_KEPT_MS = 91 * 24 * 60 * 60 * 1000;
const LISTED = 10;

interface ReadFile {
  fileName: string;
  exportedAt: number;
  changes: OutboxItem[];
}

/**
 * Saving the waiting changes to a file, and importing such a file on this or another device: a copy that outlives
 * the browser's storage. Imported changes keep their idempotency keys, so a change sent from two devices is applied
 * once; the list is shown before anything is kept, since a file may come from anyone.
 */
export function PendingChangesFile({ waiting, onImported }: { waiting: number; onImported: () => void }) {
  const { t, i18n } = useLingui();
  const [reading, setReading] = useState<ReadFile | null>(null);
  const [openedAt] = useState(() => Date.now());

  async function save() {
    const file = await exportPendingChanges(offlineDb);
    if (!file) return;
    const day = new Date().toISOString().slice(0, 10);
    saveFile(file, `terrain-pending-changes-${day}.zip`);
    showToast('info', t`The waiting changes are saved to a file`, t`Import it on this or another device to send them.`);
  }

  async function choose(file: File) {
    const read = readPendingChangesFile(new Uint8Array(await file.arrayBuffer()));
    if (!read.ok) {
      showToast(
        'error',
        read.reason === 'missingFile'
          ? t`This file of pending changes is incomplete: a file it names is missing.`
          : t`This is not a file of pending changes saved by Terrain.`,
      );
      return;
    }
    setReading({ fileName: file.name, exportedAt: read.exportedAt, changes: read.changes });
  }

  async function keep(file: ReadFile) {
    setReading(null);
    const added = await importPendingChanges(offlineDb, file.changes);
    const skipped = file.changes.length - added;
    showToast(
      'success',
      plural(added, { one: '# change imported', other: '# changes imported' }),
      skipped > 0
        ? plural(skipped, { one: '# was already on this device.', other: '# were already on this device.' })
        : undefined,
    );
    onImported();
  }

  const old = reading !== null && openedAt - reading.exportedAt > KEYS_KEPT_MS;
  return (
    <section className="flex flex-wrap items-center gap-2" aria-label={t`Pending changes file`}>
      <Button variant="outline" onClick={() => void save()} disabled={waiting === 0}>
        <Download aria-hidden />
        <Trans>Save to a file</Trans>
      </Button>
      <Button variant="outline" asChild>
        <label className="cursor-pointer has-[:focus-visible]:outline-[3px] has-[:focus-visible]:outline-ring has-[:focus-visible]:outline-solid">
          <Upload aria-hidden />
          <Trans>Import a file</Trans>
          <input
            type="file"
            accept=".zip,application/zip"
            className="sr-only"
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (file) void choose(file);
            }}
          />
        </label>
      </Button>
      <ConfirmDialog
        open={reading !== null}
        onCancel={() => setReading(null)}
        onConfirm={() => reading && void keep(reading)}
        variant="default"
        title={<Trans>Import these changes?</Trans>}
        description={
          reading ? (
            <Trans>
              {reading.fileName}, saved on{' '}
              {i18n.date(new Date(reading.exportedAt), { dateStyle: 'long', timeStyle: 'short' })}. Each change is sent
              in the name of whoever made it, once they are signed in on this device; one the server already applied is
              not applied again.
            </Trans>
          ) : null
        }
        confirmLabel={<Trans>Import</Trans>}
      >
        {reading ? (
          <div className="grid gap-2 text-sm">
            <ul className="grid max-h-60 list-disc gap-1 overflow-y-auto ps-5" data-testid="import-list">
              {reading.changes.slice(0, LISTED).map((change) => (
                <li key={change.idempotencyKey}>
                  {describeChange(i18n, change)}
                  {change.owner ? <span className="text-muted-foreground"> · {change.owner}</span> : null}
                </li>
              ))}
            </ul>
            {reading.changes.length > LISTED ? (
              <p className="text-muted-foreground">
                <Plural value={reading.changes.length - LISTED} one="and # more change" other="and # more changes" />
              </p>
            ) : null}
            {old ? (
              <p className="font-medium text-destructive" data-testid="import-old-file">
                <Trans>
                  This file is more than three months old: the server no longer recognises its changes, so one that was
                  already sent from another device would be applied a second time.
                </Trans>
              </p>
            ) : null}
          </div>
        ) : null}
      </ConfirmDialog>
    </section>
  );
}
