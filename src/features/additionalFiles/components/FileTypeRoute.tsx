import type { ReactNode } from 'react';
import { useLingui } from '@lingui/react/macro';
import type { AdditionalFileType } from '@/domain/configuration/model';
import { ApplicationRoute } from '@/components/layout/ApplicationRoute';
import { Alert } from '@/components/ui/alert';
import type { LoadedApplication } from '@/offline/useApplicationModel';

/** Loads an application and one of its additional-file types for a page, or says that the type does not exist. */
export function FileTypeRoute({
  applicationName,
  fileType,
  children,
}: {
  applicationName: string;
  fileType: string;
  children(application: LoadedApplication, type: AdditionalFileType): ReactNode;
}) {
  const { t } = useLingui();
  return (
    <ApplicationRoute applicationName={applicationName}>
      {(application) => {
        const type = application.model.additionalFiles.find((candidate) => candidate.name === fileType);
        if (!type)
          return (
            <Alert variant="destructive">{t`The application ${applicationName} has no additional files of the type ${fileType}.`}</Alert>
          );
        return children(application, type);
      }}
    </ApplicationRoute>
  );
}
