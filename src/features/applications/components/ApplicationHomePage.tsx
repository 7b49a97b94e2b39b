import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Download, HandHelping, Inbox, KeyRound, Lock, Paperclip, Pencil, UserCog } from 'lucide-react';
import { managesRights, type ApplicationView } from '@/domain/applications/applicationView';
import { localized } from '@/domain/applications/summary';
import { OfflineNotice } from '@/components/layout/OfflineNotice';
import { PageHeader } from '@/components/layout/PageHeader';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { configurationDownloadHref } from '../api';
import { dataButtons, localName } from '../listing';
import { OfflineAvailability } from './OfflineAvailability';
import type { OfflineStep } from '@/offline/offlineSteps';
import { CharterSection } from './CharterActions';
import { DataPartButton } from './DataPartButton';

export function ApplicationHomePage({
  application,
  offlineSince,
  offlineSteps,
}: {
  application: ApplicationView;
  offlineSince?: number;
  /** What "Make available offline" keeps, from every area of the application. */
  offlineSteps: () => OfflineStep[];
}) {
  const { t, i18n } = useLingui();
  const date = (iso: string) => i18n.date(new Date(iso), { dateStyle: 'long', timeStyle: 'short' });
  const description = localized(application.description, i18n.locale, application.defaultLanguage);
  const updated = application.updateDate !== application.creationDate;
  const name = localName(application, i18n.locale);
  const buttons = dataButtons(application);
  const noRights = t`To read these data, ask for rights.`;

  return (
    <div className="grid gap-6">
      <PageHeader title={name} description={description || undefined} />
      {offlineSince ? <OfflineNotice fetchedAt={offlineSince} /> : null}
      <Card>
        <CardContent className="pt-5">
          <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-[max-content_1fr]" data-testid="application-facts">
            <dt className="font-medium text-muted-foreground">
              <Trans>Name</Trans>
            </dt>
            <dd>{application.name}</dd>
            <dt className="font-medium text-muted-foreground">
              <Trans>Version</Trans>
            </dt>
            <dd>{application.version}</dd>
            <dt className="font-medium text-muted-foreground">
              <Trans>Creation date</Trans>
            </dt>
            <dd>{date(application.creationDate)}</dd>
            {updated ? (
              <>
                <dt className="font-medium text-muted-foreground">
                  <Trans>Last update</Trans>
                </dt>
                <dd>{date(application.updateDate)}</dd>
              </>
            ) : null}
            <dt className="font-medium text-muted-foreground">
              <Trans>Comment</Trans>
            </dt>
            <dd>
              {application.comment && application.comment !== 'no comment' ? (
                application.comment
              ) : (
                <em className="text-muted-foreground">{t`No comment.`}</em>
              )}
            </dd>
          </dl>
        </CardContent>
      </Card>

      {(application.references?.length ?? 0) +
        (application.dataTypes?.length ?? 0) +
        (application.additionalFiles?.length ?? 0) >
      0 ? (
        <Card>
          <CardHeader>
            <CardTitle className="text-lg">
              <Trans>Data management</Trans>
            </CardTitle>
          </CardHeader>
          <CardContent className="flex flex-wrap gap-2">
            {buttons.some((button) => !button.enabled) ? (
              <p
                id="no-data-rights"
                data-testid="no-data-rights"
                className="flex w-full items-center gap-1 text-sm text-muted-foreground"
              >
                <Lock className="size-4 shrink-0" aria-hidden />
                {noRights}
              </p>
            ) : null}
            {buttons.map(({ part, enabled }) => (
              <DataPartButton
                key={part}
                applicationName={application.name}
                part={part}
                enabled={enabled}
                reason={{ text: noRights, id: 'no-data-rights' }}
              />
            ))}
            {application.additionalFiles?.length ? (
              <Button asChild>
                <Link
                  to="/applications/$applicationName/additionalFiles"
                  params={{ applicationName: application.name }}
                >
                  <Paperclip aria-hidden />
                  <Trans>Additional files</Trans>
                </Link>
              </Button>
            ) : null}
          </CardContent>
        </Card>
      ) : null}

      <Card>
        <CardHeader>
          <CardTitle className="text-lg">
            <Trans>Rights</Trans>
          </CardTitle>
        </CardHeader>
        <CardContent className="flex flex-wrap gap-2">
          {managesRights(application) ? (
            <>
              <Button asChild>
                <Link to="/applications/$applicationName/authorizations" params={{ applicationName: application.name }}>
                  <KeyRound aria-hidden />
                  <Trans>Data rights</Trans>
                </Link>
              </Button>
              <Button asChild variant="outline">
                <Link
                  to="/applications/$applicationName/authorizationsManagementForApplicationUsers"
                  params={{ applicationName: application.name }}
                >
                  <UserCog aria-hidden />
                  <Trans>Managers</Trans>
                </Link>
              </Button>
            </>
          ) : (
            <Button asChild>
              <Link
                to="/applications/$applicationName/authorizationsRequest/$requestId"
                params={{ applicationName: application.name, requestId: 'new' }}
              >
                <HandHelping aria-hidden />
                <Trans>Request rights</Trans>
              </Link>
            </Button>
          )}
          <Button asChild variant="outline">
            <Link
              to="/applications/$applicationName/authorizationsRequest"
              params={{ applicationName: application.name }}
            >
              <Inbox aria-hidden />
              {managesRights(application) ? <Trans>Rights requests</Trans> : <Trans>My rights requests</Trans>}
            </Link>
          </Button>
        </CardContent>
      </Card>

      <CharterSection application={application} shownName={name} />

      <OfflineAvailability applicationName={application.name} steps={offlineSteps} />

      {application.isAdministrator ? (
        <Tabs defaultValue="management">
          <TabsList aria-label={t`Sections of the application`}>
            <TabsTrigger value="management">
              <Trans>Application management</Trans>
            </TabsTrigger>
          </TabsList>
          <TabsContent value="management">
            <Card>
              <CardHeader>
                <CardTitle className="text-lg">
                  <Trans>Configuration</Trans>
                </CardTitle>
              </CardHeader>
              <CardContent className="grid gap-4">
                <div className="flex flex-wrap gap-2">
                  <Button asChild>
                    <Link
                      to="/applicationCreation/$applicationName/$applicationVersion"
                      params={{ applicationName: application.name, applicationVersion: application.version }}
                    >
                      <Pencil aria-hidden />
                      <Trans>Change the application</Trans>
                    </Link>
                  </Button>
                  <Button asChild variant="outline">
                    <a href={configurationDownloadHref(application.name)} download>
                      <Download aria-hidden />
                      <Trans>Download the configuration</Trans>
                    </a>
                  </Button>
                </div>
                {application.versions && application.versions.length > 1 ? (
                  <div>
                    <h3 className="mb-2 font-medium">
                      <Trans>Stored versions</Trans>
                    </h3>
                    <ul
                      className="divide-y divide-border rounded-md border border-border"
                      data-testid="stored-versions"
                    >
                      {application.versions.map((version) => (
                        <li
                          key={version.version}
                          className="flex flex-wrap items-center justify-between gap-2 px-3 py-1"
                        >
                          <span>
                            {version.version} · {date(version.uploadedAt)}
                            {version.comment ? (
                              <span className="text-muted-foreground"> · {version.comment}</span>
                            ) : null}
                          </span>
                          <Button asChild variant="ghost" size="sm">
                            <a
                              href={configurationDownloadHref(application.name, version.version)}
                              download
                              aria-label={t`Download version ${version.version}`}
                            >
                              <Download aria-hidden />
                            </a>
                          </Button>
                        </li>
                      ))}
                    </ul>
                  </div>
                ) : null}
              </CardContent>
            </Card>
          </TabsContent>
        </Tabs>
      ) : null}
    </div>
  );
}
