import { useState } from 'react';
import { useRouter } from '@tanstack/react-router';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Pencil, RefreshCw, RotateCcw, Trash2 } from 'lucide-react';
import { PageHeader } from '@/components/layout/PageHeader';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useCurrentUser } from '@/offline/currentUser';
import { describeProblem } from '@/lib/i18n/problems';
import { refusalText } from '@/offline/changeToasts';
import { outbox } from '@/offline/outboxInstance';
import type { OutboxItem } from '@/offline/outboxTypes';
import { useOutboxItems, usePendingCount } from '@/offline/useOutbox';
import { EDITABLE_KINDS, describeChange, statusMessages } from '@/offline/describeChange';
import { NothingWaiting } from './NothingWaiting';
import { PendingChangesFile } from './PendingChangesFile';
import { StorageNote } from './StorageNote';

const badgeOf = {
  queued: 'secondary',
  sending: 'secondary',
  done: 'default',
  'needs-attention': 'destructive',
} as const;

/** A change someone else made on this device: only their session sends it. */
function OwnerNote({ owner }: { owner: string }) {
  return (
    <p className="text-sm" data-testid="pending-owner">
      <Trans>
        Made by {owner}: it is sent once {owner} signs in again on this device.
      </Trans>
    </p>
  );
}

/** Every change made on this device that the server has not applied yet, and those applied in the last day. */
export function PendingChangesPage() {
  const { t, i18n } = useLingui();
  const router = useRouter();
  const items = useOutboxItems();
  const waiting = usePendingCount();
  const user = useCurrentUser();
  const [syncing, setSyncing] = useState(false);
  const [discarding, setDiscarding] = useState<OutboxItem | null>(null);

  async function syncNow() {
    setSyncing(true);
    // The user asks: try now even while sends are held after failures.
    await outbox.process({ despiteHold: true });
    setSyncing(false);
  }

  function edit(item: OutboxItem) {
    const name = item.summary.name;
    if (item.kind === 'application.update') {
      void router.navigate({
        to: '/applicationCreation/$applicationName/$applicationVersion',
        params: { applicationName: name, applicationVersion: item.summary.from },
        search: { outboxItem: item.id },
      });
    } else {
      void router.navigate({ to: '/applicationCreation', search: { outboxItem: item.id } });
    }
  }

  const errorText = (item: OutboxItem) => {
    const error = item.lastError;
    if (!error) return undefined;
    if (error.problems?.length) return error.problems.map((p) => describeProblem(i18n, p)).join(' · ');
    return refusalText(i18n, error);
  };

  return (
    <div className="grid gap-4">
      <PageHeader
        title={<Trans>Pending changes</Trans>}
        description={
          <Trans>
            Changes made on this device are kept here until the server has applied them, even when the browser is
            closed.
          </Trans>
        }
        actions={
          <>
            <Button onClick={() => void syncNow()} disabled={syncing}>
              <RefreshCw aria-hidden className={syncing ? 'animate-spin' : undefined} />
              <Trans>Sync now</Trans>
            </Button>
            <PendingChangesFile waiting={waiting} onImported={() => void syncNow()} />
          </>
        }
      />
      <StorageNote waiting={waiting} />
      {items && items.length === 0 ? <NothingWaiting /> : null}
      <ul className="grid gap-3" aria-label={t`Pending changes`}>
        {items?.map((item) => (
          <li key={item.id} data-testid="pending-change" data-status={item.status}>
            <Card>
              <CardContent className="grid gap-2 pt-5">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <p className="font-medium">{describeChange(i18n, item)}</p>
                  <Badge variant={badgeOf[item.status]}>{i18n._(statusMessages[item.status])}</Badge>
                </div>
                <p className="text-sm text-muted-foreground">
                  <Trans>
                    Made on {i18n.date(new Date(item.createdAt), { dateStyle: 'medium', timeStyle: 'short' })} ·{' '}
                    {i18n.number(item.size / 1000, { maximumFractionDigits: 1 })} kB
                  </Trans>
                  {' · '}
                  <Plural value={item.attempts} one="# attempt" other="# attempts" />
                </p>
                {item.owner && item.owner !== user?.login && item.status !== 'done' ? (
                  <OwnerNote owner={item.owner} />
                ) : null}
                {item.lastError && item.status !== 'done' ? (
                  <p
                    className={item.status === 'needs-attention' ? 'text-destructive' : 'text-sm text-muted-foreground'}
                    role={item.status === 'needs-attention' ? 'alert' : undefined}
                  >
                    {errorText(item)}
                  </p>
                ) : null}
                {item.status === 'needs-attention' ? (
                  <div className="flex flex-wrap gap-2">
                    <Button variant="outline" onClick={() => void outbox.retry(item.id!)}>
                      <RotateCcw aria-hidden />
                      <Trans>Retry</Trans>
                    </Button>
                    {EDITABLE_KINDS.has(item.kind) ? (
                      <Button variant="outline" onClick={() => edit(item)}>
                        <Pencil aria-hidden />
                        <Trans>Edit</Trans>
                      </Button>
                    ) : null}
                    <Button variant="destructive" onClick={() => setDiscarding(item)}>
                      <Trash2 aria-hidden />
                      <Trans>Discard</Trans>
                    </Button>
                  </div>
                ) : null}
              </CardContent>
            </Card>
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={discarding !== null}
        onCancel={() => setDiscarding(null)}
        onConfirm={() => {
          if (discarding) void outbox.discard(discarding.id!);
          setDiscarding(null);
        }}
        title={<Trans>Discard this change?</Trans>}
        description={discarding ? describeChange(i18n, discarding) : null}
        confirmLabel={<Trans>Discard</Trans>}
        cancelLabel={<Trans>Keep it</Trans>}
      >
        <p>
          <Trans>It will not be sent to the server and cannot be recovered.</Trans>
        </p>
      </ConfirmDialog>
    </div>
  );
}
