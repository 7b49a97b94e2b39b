import { useEffect, useId, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Check, ExternalLink, LoaderCircle } from 'lucide-react';
import type { AccountResult } from '@/contract/accounts';
import { localized } from '@/domain/applications/summary';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { charterHref } from '@/lib/charter';
import { getCurrentUser, setCurrentUser } from '@/offline/currentUser';
import { refusalText, toastSavedOnDevice } from '@/offline/changeToasts';
import { useOutboxSubmit } from '@/offline/useOutbox';
import { charterAcceptance, type CharterView } from '../api';

type Pdf = { state: 'loading' } | { state: 'shown'; url: string } | { state: 'unavailable' };

/**
 * Fetches the charter rather than pointing the frame at it: a failure (offline, and never shown on this device)
 * is then known and said, instead of an error page inside the frame. Offline, the service worker answers with the
 * copy it kept when the charter was last shown.
 */
function useCharterPdf(href: string): Pdf {
  const [pdf, setPdf] = useState<Pdf>({ state: 'loading' });
  useEffect(() => {
    let url: string | undefined;
    let live = true;
    fetch(href, { credentials: 'same-origin' })
      .then(async (response) => {
        if (!response.ok || response.headers.get('content-type') !== 'application/pdf')
          throw new Error(String(response.status));
        const blob = await response.blob();
        if (!live) return;
        url = URL.createObjectURL(blob);
        setPdf({ state: 'shown', url });
      })
      .catch(() => live && setPdf({ state: 'unavailable' }));
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [href]);
  return pdf;
}

/**
 * The charter step: the PDF in a 600 px frame, a required checkbox, and Accept, enabled once the box is checked.
 * The acceptance goes through the outbox (`PUT /users {login, email, charte}`): offline it waits there and the user
 * goes in at once. Refusing (or closing) leaves for the application list.
 */
export function CharterDialog({
  application,
  onAccepted,
  onRefused,
}: {
  application: CharterView;
  onAccepted(): void;
  onRefused(): void;
}) {
  const submitChange = useOutboxSubmit();
  const { t, i18n } = useLingui();
  const checkboxId = useId();
  const [checked, setChecked] = useState(false);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const href = charterHref(application.name, application.charterUploadedAt);
  const pdf = useCharterPdf(href);
  const name = localized(application.title, i18n.locale, application.defaultLanguage, application.name);

  async function accept() {
    const user = getCurrentUser();
    if (!user) return;
    setSending(true);
    setError(null);
    const outcome = await submitChange(charterAcceptance(user, application));
    setSending(false);
    if (outcome.status === 'needs-attention') {
      setError(refusalText(i18n, outcome.error));
      return;
    }
    if (outcome.status === 'done') {
      const { chartes } = outcome.result as AccountResult;
      const current = getCurrentUser();
      if (current) setCurrentUser({ ...current, chartes });
    } else {
      toastSavedOnDevice(i18n, t`Your acceptance is saved on this device.`);
    }
    onAccepted();
  }

  return (
    <Dialog open onOpenChange={(open) => !open && !sending && onRefused()}>
      <DialogContent
        closeLabel={t`Close`}
        className="max-w-[600px] gap-3 p-4 sm:p-6"
        data-testid="charter-dialog"
        onInteractOutside={(event) => event.preventDefault()}
      >
        <DialogHeader>
          <DialogTitle>
            <Trans>Usage charter of {name}</Trans>
          </DialogTitle>
          <DialogDescription>
            <Trans>Read the charter of this application. You reach its data once you have accepted it.</Trans>
          </DialogDescription>
        </DialogHeader>
        {pdf.state === 'shown' ? (
          <>
            <iframe
              src={pdf.url}
              title={t`Usage charter of ${name}`}
              className="h-[600px] max-h-[50dvh] w-full rounded-md border border-border bg-muted"
              data-testid="charter-frame"
            />
            <a
              href={pdf.url}
              target="_blank"
              rel="noreferrer"
              className="inline-flex min-h-11 items-center gap-2 self-start text-primary underline-offset-4 hover:underline"
            >
              <ExternalLink className="size-5" aria-hidden />
              <Trans>Open the charter in a new tab</Trans>
            </a>
          </>
        ) : pdf.state === 'loading' ? (
          <p className="flex h-40 items-center justify-center gap-2" role="status">
            <LoaderCircle className="size-5 animate-spin" aria-hidden />
            <Trans>Loading the charter…</Trans>
          </p>
        ) : (
          <Alert variant="warning">
            <Trans>
              The charter cannot be shown: the server is out of reach and this device keeps no copy of it. Accept it
              once the network is back.
            </Trans>
          </Alert>
        )}
        <div className="flex items-center gap-3">
          <Checkbox
            id={checkboxId}
            checked={checked}
            onCheckedChange={(value) => setChecked(value === true)}
            disabled={pdf.state !== 'shown' || sending}
            aria-required
          />
          <Label htmlFor={checkboxId} className="text-base leading-snug">
            <Trans>I have read and accept the charter</Trans>
          </Label>
        </div>
        {error ? <Alert variant="destructive">{error}</Alert> : null}
        <DialogFooter>
          <Button variant="outline" onClick={onRefused} disabled={sending}>
            <Trans>Refuse</Trans>
          </Button>
          <Button onClick={() => void accept()} disabled={!checked || sending || pdf.state !== 'shown'}>
            {sending ? <LoaderCircle className="animate-spin" aria-hidden /> : <Check aria-hidden />}
            <Trans>Accept</Trans>
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
