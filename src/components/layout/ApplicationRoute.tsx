import type { ReactNode } from 'react';
import { useLingui } from '@lingui/react/macro';
import type { ApplicationOutline } from '@/domain/applications/outline';
import { localized } from '@/domain/applications/summary';
import { Alert } from '@/components/ui/alert';
import { translateServerError } from '@/lib/i18n/serverMessages';
import {
  useApplicationView,
  withConfiguration,
  withOutline,
  type LoadedApplication,
} from '@/offline/useApplicationModel';
import { NoRightsNotice } from './NoRightsNotice';

/** Loads an application with its whole configuration for a page, or says why it cannot (no right to read its data). */
export function ApplicationRoute({
  applicationName,
  children,
}: {
  applicationName: string;
  children(application: LoadedApplication): ReactNode;
}) {
  const { t, i18n } = useLingui();
  const { application, error } = useApplicationView(applicationName);
  if (error) return <Alert variant="destructive">{translateServerError(i18n, error)}</Alert>;
  if (!application) return null;
  const loaded = withConfiguration(application);
  if (!loaded) {
    const { view } = application;
    const appTitle = localized(view.title, i18n.locale, view.defaultLanguage, view.name);
    return <NoRightsNotice applicationName={view.name}>{t`You may not read the data of ${appTitle}.`}</NoRightsNotice>;
  }
  return <>{children(loaded)}</>;
}

/** Loads an application with what the user may know of its configuration, for the pages anyone may open. */
export function ApplicationOutlineRoute({
  applicationName,
  children,
}: {
  applicationName: string;
  children(application: LoadedApplication<ApplicationOutline>): ReactNode;
}) {
  const { i18n } = useLingui();
  const { application, error } = useApplicationView(applicationName);
  if (error) return <Alert variant="destructive">{translateServerError(i18n, error)}</Alert>;
  const loaded = application && withOutline(application);
  if (!loaded) return null;
  return <>{children(loaded)}</>;
}
