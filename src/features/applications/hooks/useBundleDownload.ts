import { useRef, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { translateServerError } from '@/lib/i18n/serverMessages';
import { showToast } from '@/lib/toast';
import { downloadBundle, type BundleKind } from '../api';

export interface BundleDownload {
  /** The download under way, with how far it is (0 to 1). */
  running: { kind: BundleKind; progress: number } | null;
  start(kind: BundleKind): Promise<void>;
  /** Stops the download under way: nothing is saved. */
  stop(): void;
}

/**
 * Downloads the upload kit or the backup of an application with its progress, until it ends or is stopped (a backup
 * of gigabytes takes a while); a refusal (another download of the user still running answers 429) becomes a
 * translated toast.
 */
export function useBundleDownload(applicationName: string, shownName: string): BundleDownload {
  const { t, i18n } = useLingui();
  const [running, setRunning] = useState<BundleDownload['running']>(null);
  const stopping = useRef<AbortController | null>(null);

  async function start(kind: BundleKind) {
    if (running) return;
    setRunning({ kind, progress: 0 });
    const controller = new AbortController();
    stopping.current = controller;
    let shown = 0;
    try {
      await downloadBundle(
        applicationName,
        kind,
        i18n.locale,
        (progress) => {
          // One render per percent, not per chunk.
          if (Math.round(progress * 100) === Math.round(shown * 100)) return;
          shown = progress;
          setRunning({ kind, progress });
        },
        controller.signal,
      );
      showToast(
        'success',
        kind === 'kit'
          ? t`The upload kit of ${shownName} is downloaded.`
          : t`The backup of ${shownName} is downloaded.`,
      );
    } catch (error) {
      if (!controller.signal.aborted) showToast('error', translateServerError(i18n, error));
    } finally {
      stopping.current = null;
      setRunning(null);
    }
  }

  return { running, start, stop: () => stopping.current?.abort() };
}
