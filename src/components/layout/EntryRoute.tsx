import type { ReactNode } from 'react';
import { useLingui } from '@lingui/react/macro';
import type { DataEntry } from '@/domain/configuration/model';
import { Alert } from '@/components/ui/alert';
import type { LoadedApplication } from '@/offline/useApplicationModel';
import { ApplicationRoute } from './ApplicationRoute';

/** Loads an application and one of its entries for a page, or says what is missing. */
export function EntryRoute({
  applicationName,
  entryName,
  kind,
  children,
}: {
  applicationName: string;
  entryName: string;
  kind: DataEntry['kind'];
  children(application: LoadedApplication, entry: DataEntry): ReactNode;
}) {
  const { t } = useLingui();
  return (
    <ApplicationRoute applicationName={applicationName}>
      {(application) => {
        const entry = application.model.data.find((d) => d.name === entryName && d.kind === kind);
        if (!entry)
          return (
            <Alert variant="destructive">{t`The application ${applicationName} has nothing named ${entryName} here.`}</Alert>
          );
        return children(application, entry);
      }}
    </ApplicationRoute>
  );
}
