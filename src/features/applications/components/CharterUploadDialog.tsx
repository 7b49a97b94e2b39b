import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { ExternalLink, Upload } from 'lucide-react';
import { looksLikePdf } from '@/domain/applications/charter';
import type { ApplicationView } from '@/domain/applications/applicationView';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { FileInput } from '@/components/ui/file-input';
import { Progress } from '@/components/ui/progress';
import { ApiError } from '@/lib/api/apiError';
import { charterHref, MAX_CHARTER_BYTES } from '@/lib/charter';
import { translateServerError } from '@/lib/i18n/serverMessages';
import { showToast } from '@/lib/toast';
import { refusalText, toastSavedOnDevice } from '@/offline/changeToasts';
import { useOutboxSubmit } from '@/offline/useOutbox';
import { fetchApplication } from '../api';
import { charterUpload } from '../charterUpload';

/** Where an upload stands: its steps are what the bar shows (the outbox sends with fetch, which tells no bytes sent). */
type Step = 'choose' | 'checking' | 'sending' | 'stored';
const STEP_PROGRESS: Record<Step, number> = { choose: 0, checking: 0.15, sending: 0.5, stored: 1 };

/**
 * A manager uploads or replaces the application's charter. The file is checked here first with the server's own
 * rule (a PDF, not empty, at most 10 MB), so a wrong file is said at once, online or not; the upload then goes
 * through the outbox. `onClose` receives the new charter's upload time when the server stored it.
 */
export function CharterUploadDialog({
  application,
  shownName,
  onClose,
}: {
  application: Pick<ApplicationView, 'name' | 'charterUploadedAt'>;
  shownName: string;
  onClose(uploadedAt?: string): void;
}) {
  const submitChange = useOutboxSubmit();
  const { t, i18n } = useLingui();
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | undefined>();
  const [step, setStep] = useState<Step>('choose');
  const busy = step === 'checking' || step === 'sending';

  async function choose(chosen: File | null) {
    setFile(null);
    setProblem(undefined);
    if (!chosen) return;
    setStep('checking');
    const refusal =
      chosen.size === 0
        ? new ApiError(400, 'EMPTY_FILE', { fileName: chosen.name })
        : chosen.size > MAX_CHARTER_BYTES
          ? new ApiError(413, 'FILE_TOO_LARGE', { maxBytes: MAX_CHARTER_BYTES })
          : !looksLikePdf(new Uint8Array(await chosen.slice(0, 8).arrayBuffer()))
            ? new ApiError(415, 'CHARTER_NOT_PDF', { fileName: chosen.name })
            : undefined;
    setStep('choose');
    if (refusal) setProblem(translateServerError(i18n, refusal));
    else setFile(chosen);
  }

  async function send() {
    if (!file) return;
    setStep('sending');
    const outcome = await submitChange(charterUpload(application.name, file));
    if (outcome.status === 'needs-attention') {
      setStep('choose');
      setProblem(refusalText(i18n, outcome.error));
      return;
    }
    setStep('stored');
    if (outcome.status === 'queued') {
      toastSavedOnDevice(i18n, t`The charter is saved on this device.`);
      onClose();
      return;
    }
    showToast('success', t`The charter of ${shownName} is uploaded.`);
    const stored = await fetchApplication(application.name, []).catch(() => undefined);
    onClose(stored?.charterUploadedAt ?? new Date().toISOString());
  }

  return (
    <Dialog open onOpenChange={(open) => !open && !busy && onClose()}>
      <DialogContent closeLabel={t`Close`} className="max-w-[600px]" data-testid="charter-upload">
        <DialogHeader>
          <DialogTitle>
            <Trans>Usage charter of {shownName}</Trans>
          </DialogTitle>
          <DialogDescription>
            {application.charterUploadedAt ? (
              <Trans>A new charter replaces the current one: every user who must accept it is asked again.</Trans>
            ) : (
              <Trans>This application has no charter yet: nobody is asked to accept anything.</Trans>
            )}
          </DialogDescription>
        </DialogHeader>
        {application.charterUploadedAt ? (
          <p className="flex flex-wrap items-center gap-x-3">
            <Trans>
              Current charter, uploaded on{' '}
              {i18n.date(new Date(application.charterUploadedAt), { dateStyle: 'long', timeStyle: 'short' })}.
            </Trans>
            <a
              href={charterHref(application.name, application.charterUploadedAt)}
              target="_blank"
              rel="noreferrer"
              className="inline-flex min-h-11 items-center gap-1 text-primary underline-offset-4 hover:underline"
            >
              <ExternalLink className="size-5" aria-hidden />
              <Trans>Read it</Trans>
            </a>
          </p>
        ) : null}
        <FormField label={t`Charter (PDF file)`} error={problem} hint={t`At most 10 MB.`}>
          <FileInput
            accept=".pdf,application/pdf"
            disabled={busy}
            onChange={(event) => void choose(event.target.files?.[0] ?? null)}
          />
        </FormField>
        {step !== 'choose' ? (
          <Progress
            value={STEP_PROGRESS[step]}
            label={step === 'checking' ? t`Checking the file` : t`Sending the charter`}
          />
        ) : null}
        <DialogFooter>
          <Button variant="outline" onClick={() => onClose()} disabled={busy}>
            <Trans>Cancel</Trans>
          </Button>
          <Button onClick={() => void send()} disabled={!file || busy}>
            <Upload aria-hidden />
            {application.charterUploadedAt ? <Trans>Replace the charter</Trans> : <Trans>Upload the charter</Trans>}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
