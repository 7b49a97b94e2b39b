import { createFileRoute } from '@tanstack/react-router';
import { ApplicationRoute } from '@/components/layout/ApplicationRoute';
import { FileAuthorizationsPage } from '@/features/additionalFiles/components/FileAuthorizationsPage';

export const Route = createFileRoute('/_signedIn/applications/$applicationName/additionalFiles/authorizations/')({
  component: function AdditionalFileAuthorizations() {
    const { applicationName } = Route.useParams();
    return (
      <ApplicationRoute applicationName={applicationName}>
        {(application) => <FileAuthorizationsPage key={applicationName} application={application} />}
      </ApplicationRoute>
    );
  },
});
