import type { ReactNode } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Alert } from '@/components/ui/alert';
import { translateServerError } from '@/lib/i18n/serverMessages';
import { useApplicationModel, type LoadedApplication } from '@/lib/useApplicationModel';

/** Loads an application for a page, or says why it cannot. */
export function ApplicationRoute({ applicationName, children }: { applicationName: string; children(application: LoadedApplication): ReactNode }) {
  const { i18n } = useLingui();
  const { application, error } = useApplicationModel(applicationName);
  if (error) return <Alert variant="destructive">{translateServerError(i18n, error)}</Alert>;
  if (!application) return null;
  return <>{children(application)}</>;
}
