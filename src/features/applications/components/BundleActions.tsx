import { Trans, useLingui } from '@lingui/react/macro';
import { DatabaseBackup, FileSpreadsheet } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Progress } from '@/components/ui/progress';
import { useBundleDownload } from '../hooks/useBundleDownload';

/** The card actions "upload kit" and "backup" (application creators and managers), with the download's progress. */
export function BundleActions({ applicationName, shownName }: { applicationName: string; shownName: string }) {
  const { t, i18n } = useLingui();
  const download = useBundleDownload(applicationName, shownName);
  const running = download.running;
  return (
    <>
      <Button
        variant="outline"
        onClick={() => void download.start('kit')}
        disabled={running !== null}
        aria-label={t`Download the upload kit of ${shownName}`}
      >
        <FileSpreadsheet aria-hidden />
        <Trans>Upload kit</Trans>
      </Button>
      <Button
        variant="outline"
        onClick={() => void download.start('backup')}
        disabled={running !== null}
        aria-label={t`Download a backup of ${shownName}`}
      >
        <DatabaseBackup aria-hidden />
        <Trans>Backup</Trans>
      </Button>
      {running ? (
        <div className="flex basis-full flex-wrap items-center gap-x-3 gap-y-2" role="status">
          <Progress
            className="min-w-32 flex-1"
            value={running.progress}
            label={
              running.kind === 'kit'
                ? t`Downloading the upload kit of ${shownName}`
                : t`Downloading the backup of ${shownName}`
            }
          />
          <span className="w-14 shrink-0 text-right text-sm tabular-nums text-muted-foreground">
            {i18n.number(running.progress, { style: 'percent', maximumFractionDigits: 0 })}
          </span>
          <Button variant="outline" size="sm" onClick={download.stop}>
            <Trans>Stop the download</Trans>
          </Button>
        </div>
      ) : null}
    </>
  );
}
