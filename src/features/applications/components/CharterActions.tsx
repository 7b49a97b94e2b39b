import { useState } from 'react';
import { useRouter } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { ExternalLink, ScrollText, Upload } from 'lucide-react';
import type { ApplicationView } from '@/domain/applications/applicationView';
import { charterSigning } from '@/domain/applications/charter';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { charterHref } from '@/lib/charter';
import { useCurrentUser } from '@/offline/currentUser';
import { CharterUploadDialog } from './CharterUploadDialog';

type CharterFacts = Pick<
  ApplicationView,
  'id' | 'name' | 'isAdministrator' | 'hasCharter' | 'charterUploadedAt' | 'mustSignCharter'
>;

/** The card's charter action: managers open the upload dialog, others read the charter when there is one. */
export function CharterCardAction({ application, shownName }: { application: CharterFacts; shownName: string }) {
  const { t } = useLingui();
  const [uploadedAt, setUploadedAt] = useState(application.charterUploadedAt);
  const [open, setOpen] = useState(false);
  if (application.isAdministrator) {
    return (
      <>
        <Button variant="outline" onClick={() => setOpen(true)} aria-label={t`Charter of ${shownName}`}>
          <ScrollText aria-hidden />
          <Trans>Charter</Trans>
        </Button>
        {open ? (
          <CharterUploadDialog
            application={{ name: application.name, charterUploadedAt: uploadedAt }}
            shownName={shownName}
            onClose={(stored) => {
              if (stored) setUploadedAt(stored);
              setOpen(false);
            }}
          />
        ) : null}
      </>
    );
  }
  if (!uploadedAt) return null;
  return (
    <Button asChild variant="outline">
      <a
        href={charterHref(application.name, uploadedAt)}
        target="_blank"
        rel="noreferrer"
        aria-label={t`Read the charter of ${shownName}`}
      >
        <ScrollText aria-hidden />
        <Trans>Charter</Trans>
      </a>
    </Button>
  );
}

/** The home page's charter card: read it, see when it was accepted; managers upload or replace it. */
export function CharterSection({ application, shownName }: { application: CharterFacts; shownName: string }) {
  const { i18n } = useLingui();
  const router = useRouter();
  const user = useCurrentUser();
  const [open, setOpen] = useState(false);
  if (!application.isAdministrator && !application.hasCharter) return null;
  const date = (iso: string) => i18n.date(new Date(iso), { dateStyle: 'long', timeStyle: 'short' });
  // The remembered user, not the page's application: it knows of an acceptance made since the page was loaded.
  const acceptedAt = user?.chartes[application.id];
  const acceptedCurrent = charterSigning(acceptedAt, application.charterUploadedAt, false).hasSignedLastCharte;
  return (
    <Card data-testid="charter-section">
      <CardHeader>
        <CardTitle className="text-lg">
          <Trans>Usage charter</Trans>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3">
        {application.charterUploadedAt ? (
          <p>
            <Trans>Uploaded on {date(application.charterUploadedAt)}.</Trans>{' '}
            {acceptedAt && acceptedCurrent ? (
              <Trans>You accepted it on {date(acceptedAt)}.</Trans>
            ) : !application.mustSignCharter ? (
              <Trans>Your role on the application exempts you from accepting it.</Trans>
            ) : null}
          </p>
        ) : (
          <p className="text-muted-foreground">
            <Trans>No charter: nobody is asked to accept anything before using the data.</Trans>
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          {application.charterUploadedAt ? (
            <Button asChild variant="outline">
              <a href={charterHref(application.name, application.charterUploadedAt)} target="_blank" rel="noreferrer">
                <ExternalLink aria-hidden />
                <Trans>Read the charter</Trans>
              </a>
            </Button>
          ) : null}
          {application.isAdministrator ? (
            <Button onClick={() => setOpen(true)}>
              <Upload aria-hidden />
              {application.hasCharter ? <Trans>Replace the charter</Trans> : <Trans>Upload the charter</Trans>}
            </Button>
          ) : null}
        </div>
      </CardContent>
      {open ? (
        <CharterUploadDialog
          application={application}
          shownName={shownName}
          onClose={(stored) => {
            setOpen(false);
            // The page's application (upload time, who must sign) is read again.
            if (stored) void router.invalidate();
          }}
        />
      ) : null}
    </Card>
  );
}
