import { useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { translateServerError } from '@/lib/i18n/serverMessages';
import { showToast } from '@/lib/toast';
import { downloadBundle, type BundleKind } from '../api';

export interface BundleDownload {
  /** The download under way, with how far it is (0 to 1). */
  running: { kind: BundleKind; progress: number } | null;
  start(kind: BundleKind): Promise<void>;
}

/**
 * Downloads the upload kit or the backup of an application with its progress; a refusal (another download of
 * the user still running answers 429) becomes a translated toast.
 */
export function useBundleDownload(applicationName: string, shownName: string): BundleDownload {
  const { t, i18n } = useLingui();
  const [running, setRunning] = useState<BundleDownload['running']>(null);

  async function start(kind: BundleKind) {
    if (running) return;
    setRunning({ kind, progress: 0 });
    let shown = 0;
    try {
      await downloadBundle(applicationName, kind, i18n.locale, (progress) => {
        // One render per percent, not per chunk.
        if (Math.round(progress * 100) === Math.round(shown * 100)) return;
        shown = progress;
        setRunning({ kind, progress });
      });
      showToast(
        'success',
        kind === 'kit'
          ? t`The upload kit of ${shownName} is downloaded.`
          : t`The backup of ${shownName} is downloaded.`,
      );
    } catch (error) {
      showToast('error', translateServerError(i18n, error));
    } finally {
      setRunning(null);
    }
  }

  return { running, start };
}
