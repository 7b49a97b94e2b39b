import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Download, Home, Inbox, KeyRound, Lock, Paperclip, Pencil } from 'lucide-react';
import { managesRights, type ApplicationView } from '@/domain/applications/applicationView';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { configurationDownloadHref } from '../api';
import { dataButtons, localName, shownDate } from '../listing';
import { CharterCardAction } from './CharterActions';
import { BundleActions } from './BundleActions';
import { DataPartButton } from './DataPartButton';

export function ApplicationCard({ application }: { application: ApplicationView }) {
  const { t, i18n } = useLingui();
  const name = localName(application, i18n.locale);
  const buttons = dataButtons(application);
  const noRightsId = `no-data-rights-${application.id}`;
  const noRights = t`You may not read these data: ask for rights through Requests.`;
  return (
    <Card className="flex flex-col" data-testid="application-card" data-name={application.name}>
      <CardHeader className="pb-2">
        <CardTitle className="text-lg">{name}</CardTitle>
        <p className="text-sm text-muted-foreground">
          {application.name} · <Trans>version {application.version}</Trans> ·{' '}
          <time dateTime={shownDate(application)}>
            {i18n.date(new Date(shownDate(application)), { dateStyle: 'medium' })}
          </time>
        </p>
      </CardHeader>
      <CardContent className="grid flex-1 content-start gap-2 text-sm text-muted-foreground">
        {application.comment ? <p className="line-clamp-3">{application.comment}</p> : null}
        {buttons.some((button) => !button.enabled) ? (
          <p id={noRightsId} data-testid="no-data-rights" className="flex items-center gap-1">
            <Lock className="size-4 shrink-0" aria-hidden />
            {noRights}
          </p>
        ) : null}
      </CardContent>
      <CardFooter className="flex-wrap">
        <Button asChild>
          <Link
            to="/applications/$applicationName"
            params={{ applicationName: application.name }}
            aria-label={t`Open ${name}`}
          >
            <Home aria-hidden />
            <Trans>Home</Trans>
          </Link>
        </Button>
        {buttons.map(({ part, enabled }) => (
          <DataPartButton
            key={part}
            applicationName={application.name}
            part={part}
            enabled={enabled}
            variant="outline"
            label={part === 'references' ? t`References of ${name}` : t`Data types of ${name}`}
            reason={{ text: noRights, id: noRightsId }}
          />
        ))}
        {application.additionalFiles && application.additionalFiles.length > 0 ? (
          <Button asChild variant="outline">
            <Link
              to="/applications/$applicationName/additionalFiles"
              params={{ applicationName: application.name }}
              aria-label={t`Additional files of ${name}`}
            >
              <Paperclip aria-hidden />
              <Trans>Additional files</Trans>
            </Link>
          </Button>
        ) : null}
        {managesRights(application) ? (
          <Button asChild variant="outline">
            <Link
              to="/applications/$applicationName/authorizations"
              params={{ applicationName: application.name }}
              aria-label={t`Data rights of ${name}`}
            >
              <KeyRound aria-hidden />
              <Trans>Rights</Trans>
            </Link>
          </Button>
        ) : null}
        <Button asChild variant="outline">
          <Link
            to="/applications/$applicationName/authorizationsRequest"
            params={{ applicationName: application.name }}
            aria-label={t`Rights requests of ${name}`}
          >
            <Inbox aria-hidden />
            <Trans>Requests</Trans>
          </Link>
        </Button>
        <CharterCardAction application={application} shownName={name} />
        {application.isAdministrator ? (
          <>
            <Button asChild variant="outline">
              <Link
                to="/applicationCreation/$applicationName/$applicationVersion"
                params={{ applicationName: application.name, applicationVersion: application.version }}
                aria-label={t`Update ${name}`}
              >
                <Pencil aria-hidden />
                <Trans>Update</Trans>
              </Link>
            </Button>
            <Button asChild variant="outline">
              <a
                href={configurationDownloadHref(application.name)}
                download
                aria-label={t`Download the configuration of ${name}`}
              >
                <Download aria-hidden />
                <Trans>YAML</Trans>
              </a>
            </Button>
            <BundleActions applicationName={application.name} shownName={name} />
          </>
        ) : null}
      </CardFooter>
    </Card>
  );
}
