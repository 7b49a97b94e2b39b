import { useLingui } from '@lingui/react/macro';
import { Download, Trash2 } from 'lucide-react';
import { InTheBackup } from '@/components/backup/InTheBackup';
import { Button } from '@/components/ui/button';
import { Switch } from '@/components/ui/switch';
import { mediumDate } from '../dates';
import type { PeriodGroup } from '../periods';

/** The pieces of a version shown the same in the table's row and in the card of a phone. */
export type PeriodVersion = PeriodGroup['versions'][number];

export interface VersionHandlers {
  onPublish: (version: PeriodVersion, publish: boolean) => void;
  onDownload: (version: PeriodVersion) => void;
  onDelete: (version: PeriodVersion) => void;
}

const working = (version: PeriodVersion) =>
  Boolean(version.job && (version.job.status === 'queued' || version.job.status === 'running'));

/** When and by whom a version was deposited. */
export function VersionDeposited({ version }: { version: PeriodVersion }) {
  const { i18n } = useLingui();
  return (
    <>
      {mediumDate(i18n, version.createdAt)} · {version.createdBy.login ?? version.createdBy.id?.slice(0, 8)}
      <InTheBackup login={version.originalDepositor} />
    </>
  );
}

/** When and by whom a version was published, and how far its publication job has gone while it runs. */
export function VersionPublished({ version }: { version: PeriodVersion }) {
  const { t, i18n } = useLingui();
  return (
    <>
      {version.published ? `${mediumDate(i18n, version.publishedAt)} · ${version.publishedBy.login ?? ''}` : ''}
      {version.published ? <InTheBackup login={version.originalPublisher} /> : null}
      {working(version) ? (
        <span className="text-muted-foreground"> {t`working… ${Math.round(version.job!.progress * 100)} %`}</span>
      ) : null}
    </>
  );
}

/** A version's publication switch, download and deletion. */
export function VersionActions({
  version,
  onPublish,
  onDownload,
  onDelete,
}: { version: PeriodVersion } & VersionHandlers) {
  const { t } = useLingui();
  return (
    <>
      <Switch
        checked={version.published}
        disabled={working(version)}
        onCheckedChange={(checked) => onPublish(version, checked)}
        aria-label={version.published ? t`Unpublish version ${version.number}` : t`Publish version ${version.number}`}
      />
      <Button
        variant="ghost"
        size="icon"
        aria-label={t`Download version ${version.number}`}
        onClick={() => onDownload(version)}
      >
        <Download aria-hidden />
      </Button>
      <Button
        variant="ghost"
        size="icon"
        aria-label={t`Delete version ${version.number}`}
        onClick={() => onDelete(version)}
      >
        <Trash2 aria-hidden />
      </Button>
    </>
  );
}
