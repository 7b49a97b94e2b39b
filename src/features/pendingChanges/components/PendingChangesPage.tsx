import { useMemo, useState } from 'react';
import { useRouter } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { RefreshCw } from 'lucide-react';
import { PageHeader } from '@/components/layout/PageHeader';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { showToast } from '@/lib/toast';
import { useCurrentUser } from '@/offline/currentUser';
import { outbox } from '@/offline/outboxInstance';
import type { OutboxItem } from '@/offline/outboxTypes';
import { useOutboxItems, usePendingCount } from '@/offline/useOutbox';
import { refusedBlockers } from '@/offline/heldResources';
import { describeChange } from '@/offline/describeChange';
import { PUBLIC_USER, type AuthorizationRequest } from '@/domain/rights/authorization';
import { CancelChangeDialog } from './CancelChangeDialog';
import { NothingWaiting } from './NothingWaiting';
import { PendingChangeCard } from './PendingChangeCard';
import { PendingChangesFile } from './PendingChangesFile';
import { StorageNote } from './StorageNote';

/** Every change made on this device that the server has not applied yet, and those applied in the last day. */
export function PendingChangesPage() {
  const { t, i18n } = useLingui();
  const router = useRouter();
  const items = useOutboxItems();
  const blockers = useMemo(() => refusedBlockers(items ?? []), [items]);
  const waiting = usePendingCount();
  const user = useCurrentUser();
  const [syncing, setSyncing] = useState(false);
  const [discarding, setDiscarding] = useState<OutboxItem | null>(null);
  const [cancelling, setCancelling] = useState<OutboxItem | null>(null);

  async function syncNow() {
    setSyncing(true);
    // The user asks: try now even while sends are held after failures.
    await outbox.process({ despiteHold: true });
    setSyncing(false);
  }

  function edit(item: OutboxItem) {
    const name = item.summary.name;
    if (item.kind === 'reference.upload') {
      // Changes kept before data types were told apart have no `entry`: those were references.
      void router.navigate({
        to:
          item.summary.entry === 'dataType'
            ? '/applications/$applicationName/dataTypes'
            : '/applications/$applicationName/references',
        params: { applicationName: name },
        search: { outboxItem: item.id },
      });
    } else if (item.kind === 'deposit.upload') {
      void router.navigate({
        to: '/applications/$applicationName/dataVersioning/$dataType',
        params: { applicationName: name, dataType: item.summary.dataType },
        search: { outboxItem: item.id },
      });
    } else if (item.kind === 'authorization.save') {
      const request = item.input as AuthorizationRequest;
      void router.navigate({
        to: (request.usersId ?? []).includes(PUBLIC_USER)
          ? '/applications/$applicationName/authorizations/public/$authorizationId'
          : '/applications/$applicationName/authorizations/$authorizationId',
        params: { applicationName: name, authorizationId: request.uuid ?? 'new' },
        search: { outboxItem: item.id },
      });
    } else if (item.kind === 'rightsRequest.save') {
      void router.navigate({
        to: '/applications/$applicationName/authorizationsRequest/$requestId',
        params: { applicationName: name, requestId: (item.input as { id?: string | null }).id ?? 'new' },
        search: { outboxItem: item.id },
      });
    } else if (item.kind === 'additionalFile.save') {
      void router.navigate({
        to: '/applications/$applicationName/additionalFiles/$additionalFileName/$additionalFileId',
        params: {
          applicationName: name,
          additionalFileName: item.summary.fileType,
          additionalFileId: (item.input as { id?: string | null }).id ?? 'new',
        },
        search: { outboxItem: item.id },
      });
    } else if (item.kind === 'application.update') {
      void router.navigate({
        to: '/applicationCreation/$applicationName/$applicationVersion',
        params: { applicationName: name, applicationVersion: item.summary.from },
        search: { outboxItem: item.id },
      });
    } else {
      void router.navigate({ to: '/applicationCreation', search: { outboxItem: item.id } });
    }
  }

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
            <PendingChangeCard
              item={item}
              login={user?.login}
              blockedBy={blockers.get(item.id!)}
              onEdit={edit}
              onDiscard={setDiscarding}
              onCancel={setCancelling}
            />
          </li>
        ))}
      </ul>
      <CancelChangeDialog item={cancelling} onClose={() => setCancelling(null)} />
      <ConfirmDialog
        open={discarding !== null}
        onCancel={() => setDiscarding(null)}
        onConfirm={() => {
          if (discarding)
            void outbox.discard(discarding.id!).then((discarded) => {
              // Retried meanwhile (another tab): it may be on its way; it stays listed as it is now.
              if (!discarded) showToast('warning', t`It was sent again meanwhile: it was not discarded.`);
            });
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
