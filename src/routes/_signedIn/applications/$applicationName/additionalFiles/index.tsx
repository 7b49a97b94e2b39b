import { createFileRoute } from '@tanstack/react-router';
import { ApplicationRoute } from '@/components/layout/ApplicationRoute';
import { FileTypesPage } from '@/features/additionalFiles/components/FileTypesPage';

export const Route = createFileRoute('/_signedIn/applications/$applicationName/additionalFiles/')({
  component: function AdditionalFiles() {
    const { applicationName } = Route.useParams();
    return (
      <ApplicationRoute applicationName={applicationName}>
        {(application) => <FileTypesPage key={applicationName} application={application} />}
      </ApplicationRoute>
    );
  },
});
