import { Trans, useLingui } from '@lingui/react/macro';
import { CircleCheck, LoaderCircle, X } from 'lucide-react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Progress } from '@/components/ui/progress';
import { formatSize } from '@/lib/i18n/formatSize';
import { translateServerError } from '@/lib/i18n/serverMessages';
import type { DownloadState } from '../hooks/useDownload';

/** Where a download from the page stands: lines (CSV) or bytes received, then saved, or why the server refused it. */
export function DownloadProgress({ state, onCancel, onDismiss }: { state: DownloadState; onCancel(): void; onDismiss(): void }) {
  const { t, i18n } = useLingui();
  const { fileName, received, lines, expectedLines } = state;
  const size = formatSize(i18n, received);
  if (state.status === 'failed')
    return (
      <Alert variant="destructive" className="mb-4 flex items-center justify-between gap-2" data-testid="download-progress">
        <span>
          <Trans>
            {fileName} was not downloaded: {translateServerError(i18n, state.error!)}
          </Trans>
        </span>
        <Button variant="ghost" size="icon" aria-label={t`Close`} onClick={onDismiss}>
          <X aria-hidden />
        </Button>
      </Alert>
    );
  const done = state.status === 'done';
  return (
    <div className="mb-4 grid gap-2 rounded-lg border border-border bg-card p-3" data-testid="download-progress" data-status={state.status}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        {/* At least 15rem wide before the button beside it wraps: on a phone, the close button stays at the right of
            its line, the wider "Stop" button goes under the line. */}
        <p role="status" className="flex min-w-0 grow basis-60 items-center gap-2 wrap-anywhere">
          {done ? <CircleCheck className="size-5 text-success" aria-hidden /> : <LoaderCircle className="size-5 animate-spin" aria-hidden />}
          {done ? (
            <Trans>
              {fileName} saved ({size}).
            </Trans>
          ) : lines !== undefined && expectedLines !== undefined ? (
            <Trans>
              Downloading {fileName}: {i18n.number(Math.min(lines, expectedLines))} of {i18n.number(expectedLines)} lines ({size})
            </Trans>
          ) : lines !== undefined ? (
            <Trans>
              Downloading {fileName}: {i18n.number(lines)} lines ({size})
            </Trans>
          ) : (
            <Trans>
              Downloading {fileName}: {size} received
            </Trans>
          )}
        </p>
        {done ? (
          <Button variant="ghost" size="icon" aria-label={t`Close`} onClick={onDismiss}>
            <X aria-hidden />
          </Button>
        ) : (
          <Button variant="outline" size="sm" onClick={onCancel}>
            <Trans>Stop the download</Trans>
          </Button>
        )}
      </div>
      {!done && lines !== undefined && expectedLines ? <Progress value={lines / expectedLines} label={t`Download of ${fileName}`} /> : null}
    </div>
  );
}
