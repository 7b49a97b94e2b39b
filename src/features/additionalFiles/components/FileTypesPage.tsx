import { Link } from '@tanstack/react-router';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { ArrowLeft, FolderOpen, KeyRound } from 'lucide-react';
import { localized } from '@/domain/applications/summary';
import { Breadcrumb } from '@/components/layout/Breadcrumb';
import { PageHeader } from '@/components/layout/PageHeader';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { ApiError } from '@/lib/api/apiError';
import { translateServerError } from '@/lib/i18n/serverMessages';
import type { LoadedApplication } from '@/offline/useApplicationModel';
import { useKeptQuery } from '@/offline/useKeptQuery';
import { overviewRead } from '../api';
import { OfflineNotice } from '@/components/layout/OfflineNotice';

/** The kinds of documents an application keeps, how many of each, and the way to the rights on them. */
export function FileTypesPage({ application }: { application: LoadedApplication }) {
  const { t, i18n } = useLingui();
  const { view, model } = application;
  const read = overviewRead(view.name);
  const { data: overview, error, offlineSince } = useKeptQuery(read.queryKey, read.read);
  const text = (value: Record<string, string> | undefined, fallback = '') =>
    localized(value, i18n.locale, model.defaultLanguage, fallback);
  const appTitle = text(view.title, view.name);

  const offline = error instanceof ApiError && error.isNetworkError;
  if (error && !offline) return <Alert variant="destructive">{translateServerError(i18n, error)}</Alert>;
  const counts = new Map(overview?.additionalFileTypes.map((type) => [type.name, type.count]));

  return (
    <div className="grid grid-cols-1 gap-4">
      <Breadcrumb
        label={t`Breadcrumb`}
        crumbs={[
          { label: t`Applications`, href: '/applications' },
          { label: appTitle, href: `/applications/${view.name}` },
          { label: t`Additional files` },
        ]}
      />
      <PageHeader
        title={<Trans>Additional files of {appTitle}</Trans>}
        description={<Trans>Documents kept beside the data: protocols, metadata sheets, photos…</Trans>}
        actions={
          <>
            <Button asChild variant="outline">
              <Link to="/applications/$applicationName" params={{ applicationName: view.name }}>
                <ArrowLeft aria-hidden />
                <Trans>Back to the application</Trans>
              </Link>
            </Button>
            {overview?.managesFileRights ? (
              <Button asChild variant="outline">
                <Link
                  to="/applications/$applicationName/additionalFiles/authorizations"
                  params={{ applicationName: view.name }}
                >
                  <KeyRound aria-hidden />
                  <Trans>Rights on additional files</Trans>
                </Link>
              </Button>
            ) : null}
          </>
        }
      />
      {offlineSince ? <OfflineNotice fetchedAt={offlineSince} /> : null}
      {offline ? (
        <Alert variant="warning">{t`The server cannot be reached: the number of files is not known. Files you add are kept on this device and sent later.`}</Alert>
      ) : null}
      {model.additionalFiles.length === 0 ? (
        <p className="py-6 text-center text-muted-foreground">
          <Trans>This application keeps no additional files.</Trans>
        </p>
      ) : null}
      <ul className="grid gap-4 sm:grid-cols-2" aria-label={t`File types`}>
        {model.additionalFiles.map((type) => {
          const count = counts.get(type.name);
          const title = text(type.i18n.title, type.name);
          return (
            <li key={type.name}>
              <Card className="flex h-full flex-col" data-testid="file-type" data-name={type.name}>
                <CardHeader>
                  <CardTitle className="text-lg">{title}</CardTitle>
                  {text(type.i18n.description) ? (
                    <CardDescription>{text(type.i18n.description)}</CardDescription>
                  ) : null}
                </CardHeader>
                <CardContent className="flex-1 text-sm text-muted-foreground">
                  {count === undefined ? null : <Plural value={count} _0="No file" one="# file" other="# files" />}
                </CardContent>
                <CardFooter>
                  <Button asChild>
                    <Link
                      to="/applications/$applicationName/additionalFiles/$additionalFileName"
                      params={{ applicationName: view.name, additionalFileName: type.name }}
                      aria-label={t`Open ${title}`}
                    >
                      <FolderOpen aria-hidden />
                      <Trans>Open</Trans>
                    </Link>
                  </Button>
                </CardFooter>
              </Card>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
