import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Ban, Pencil, RotateCcw, Trash2 } from 'lucide-react';
import { CsvReportView } from '@/components/csv/CsvReportView';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { describeProblem } from '@/lib/i18n/problems';
import { refusalText } from '@/offline/changeToasts';
import { outbox } from '@/offline/outboxInstance';
import type { OutboxItem } from '@/offline/outboxTypes';
import { publicationJobOf } from '@/offline/publicationJobs';
import { datasetOf } from '../dataset';
import { describeChange, isEditable, statusMessages } from '@/offline/describeChange';
import { refusedAsEarlierVersion } from '@/offline/earlierVersionRefusal';
import { refusedFileReport } from '@/offline/refusedFile';

const badgeOf = {
  queued: 'secondary',
  sending: 'secondary',
  done: 'default',
  'needs-attention': 'destructive',
} as const;

/** A change someone else made on this device: only their session sends, cancels, corrects or discards it. */
function OwnerNote({ owner }: { owner: string }) {
  return (
    <p className="text-sm" data-testid="pending-owner">
      <Trans>
        Made by {owner}: it is sent once {owner} signs in again on this device.
      </Trans>{' '}
      <Trans>Only the person who made it can cancel, correct or discard it.</Trans>
    </p>
  );
}

/** A change waiting behind a refused one before it: sent once that one is retried, edited or discarded. */
function BlockerNote({ blocker }: { blocker: OutboxItem }) {
  const { i18n } = useLingui();
  const change = describeChange(i18n, blocker);
  return (
    <p className="text-sm wrap-anywhere" data-testid="pending-blocked">
      <Trans>
        Waits for a refused change made before it: {change}. It is sent once that one is retried or discarded.
      </Trans>
    </p>
  );
}

/** What became of the publication job an applied change started: the change is applied once the job is accepted. */
function JobNote({ item }: { item: OutboxItem }) {
  const { i18n } = useLingui();
  const job = publicationJobOf(item);
  const outcome = item.jobOutcome;
  if (!job || outcome?.status === 'superseded') return null;
  if (outcome?.status === 'failed') {
    const reason = describeProblem(i18n, outcome.error);
    return (
      <p className="text-destructive" role="alert" data-testid="pending-job">
        {job.publish ? (
          <Trans>The publication failed: {reason}</Trans>
        ) : (
          <Trans>The unpublication failed: {reason}</Trans>
        )}
      </p>
    );
  }
  if (outcome?.status === 'unreadable')
    return (
      <p className="text-sm text-muted-foreground" data-testid="pending-job">
        <Trans>The server took it in charge; your rights do not let you read how it ended.</Trans>
      </p>
    );
  return (
    <p className="text-sm text-muted-foreground" data-testid="pending-job">
      {outcome?.status === 'done' ? (
        job.publish ? (
          <Trans>The version is published.</Trans>
        ) : (
          <Trans>The version is no longer published.</Trans>
        )
      ) : job.publish ? (
        <Trans>The server is publishing the version.</Trans>
      ) : (
        <Trans>The server is unpublishing the version.</Trans>
      )}
    </p>
  );
}

/**
 * A change an earlier version of Terrain prepared, which the server no longer accepts as it was stored: sent again it
 * would be refused again, so the person redoes it (its form reopened, where it can be) or discards it.
 */
function EarlierVersionNote({ editable }: { editable: boolean }) {
  return (
    <p className="text-destructive" role="alert" data-testid="pending-earlier-version">
      {editable ? (
        <Trans>
          This change was prepared by an earlier version of Terrain, and the server no longer accepts it as it was kept.
          Redo it: edit it, or discard it.
        </Trans>
      ) : (
        <Trans>
          This change was prepared by an earlier version of Terrain, and the server no longer accepts it as it was kept.
          Discard it and make it again.
        </Trans>
      )}
    </p>
  );
}

interface PendingChangeCardProps {
  item: OutboxItem;
  /** The refused change before it that holds it back, if any. */
  blockedBy?: OutboxItem;
  /** Who is signed in: a change made by someone else says who it waits for. */
  login: string | undefined;
  onEdit: (item: OutboxItem) => void;
  onDiscard: (item: OutboxItem) => void;
  onCancel: (item: OutboxItem) => void;
}

/** One change of the pending list: what it does and to what, its state, why it was refused, and what can be done. */
export function PendingChangeCard({ item, login, blockedBy, onEdit, onDiscard, onCancel }: PendingChangeCardProps) {
  const { i18n } = useLingui();
  const error = item.status === 'done' ? undefined : item.lastError;
  // A day of the period at local midnight, as the deposits page shows it (a bare date would be read as UTC).
  const dataset = datasetOf(item, (day) => i18n.date(new Date(`${day}T00:00:00`), { dateStyle: 'medium' }));
  const refusedFile = item.status === 'needs-attention' ? refusedFileReport(error) : undefined;
  // On a shared tablet, another person's change is theirs to decide on: it is shown, never cancelled or discarded here.
  const someoneElses = Boolean(item.owner && item.owner !== login && item.status !== 'done');
  const fromEarlierVersion = refusedAsEarlierVersion(item);
  const errorText = !error
    ? undefined
    : error.problems?.length
      ? error.problems.map((p) => describeProblem(i18n, p)).join(' · ')
      : refusalText(i18n, error);

  return (
    <Card>
      <CardContent className="grid gap-2 pt-5">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="font-medium wrap-anywhere">{describeChange(i18n, item)}</p>
          {item.jobOutcome?.status === 'failed' ? (
            <Badge variant="destructive">
              <Trans>Failed on the server</Trans>
            </Badge>
          ) : (
            <Badge variant={badgeOf[item.status]}>{i18n._(statusMessages[item.status])}</Badge>
          )}
        </div>
        {dataset ? (
          <p className="text-sm wrap-anywhere" data-testid="pending-dataset">
            <Trans>Dataset: {dataset}</Trans>
          </p>
        ) : null}
        <p className="text-sm text-muted-foreground">
          <Trans>
            Made on {i18n.date(new Date(item.createdAt), { dateStyle: 'medium', timeStyle: 'short' })} ·{' '}
            {i18n.number(item.size / 1000, { maximumFractionDigits: 1 })} kB
          </Trans>
          {' · '}
          <Plural value={item.attempts} one="# attempt" other="# attempts" />
        </p>
        {someoneElses ? <OwnerNote owner={item.owner!} /> : null}
        {blockedBy && item.status === 'queued' ? <BlockerNote blocker={blockedBy} /> : null}
        {fromEarlierVersion ? <EarlierVersionNote editable={isEditable(item)} /> : null}
        {errorText && !fromEarlierVersion ? (
          <p
            className={item.status === 'needs-attention' ? 'text-destructive' : 'text-sm text-muted-foreground'}
            role={item.status === 'needs-attention' ? 'alert' : undefined}
          >
            {errorText}
          </p>
        ) : null}
        {item.status === 'done' ? <JobNote item={item} /> : null}
        {refusedFile ? <CsvReportView report={refusedFile} fileName={item.summary.fileName ?? ''} /> : null}
        {/* Only while it waits: once sending began the server may be applying it. */}
        {item.status === 'queued' && !someoneElses ? (
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" onClick={() => onCancel(item)}>
              <Ban aria-hidden />
              <Trans>Cancel</Trans>
            </Button>
          </div>
        ) : null}
        {item.status === 'needs-attention' && !someoneElses ? (
          <div className="flex flex-wrap gap-2">
            {/* Sent again as it was kept, a change of an earlier version is refused again. */}
            {fromEarlierVersion ? null : (
              <Button variant="outline" onClick={() => void outbox.retry(item.id!)}>
                <RotateCcw aria-hidden />
                <Trans>Retry</Trans>
              </Button>
            )}
            {isEditable(item) ? (
              <Button variant="outline" onClick={() => onEdit(item)}>
                <Pencil aria-hidden />
                <Trans>Edit</Trans>
              </Button>
            ) : null}
            <Button variant="destructive" onClick={() => onDiscard(item)}>
              <Trash2 aria-hidden />
              <Trans>Discard</Trans>
            </Button>
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}
