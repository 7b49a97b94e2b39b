import { createFileRoute } from '@tanstack/react-router';
import { ApplicationRoute } from '@/components/layout/ApplicationRoute';
import { FileAuthorizationForm } from '@/features/additionalFiles/components/FileAuthorizationForm';

export const Route = createFileRoute(
  '/_signedIn/applications/$applicationName/additionalFiles/authorizations/$authorizationId',
)({
  component: function AdditionalFileAuthorization() {
    const { applicationName, authorizationId } = Route.useParams();
    return (
      <ApplicationRoute applicationName={applicationName}>
        {(application) => (
          <FileAuthorizationForm
            key={`${applicationName}/${authorizationId}`}
            application={application}
            authorizationId={authorizationId}
          />
        )}
      </ApplicationRoute>
    );
  },
});
