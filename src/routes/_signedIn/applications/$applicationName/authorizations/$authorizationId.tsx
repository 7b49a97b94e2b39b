import { createFileRoute } from '@tanstack/react-router';
import { ApplicationRoute } from '@/components/layout/ApplicationRoute';
import { AuthorizationForm } from '@/features/rights/components/AuthorizationForm';

export const Route = createFileRoute('/_signedIn/applications/$applicationName/authorizations/$authorizationId')({
  component: function Authorization() {
    const { applicationName, authorizationId } = Route.useParams();
    return (
      <ApplicationRoute applicationName={applicationName}>
        {(application) => (
          <AuthorizationForm
            key={`${applicationName}/${authorizationId}`}
            application={application}
            authorizationId={authorizationId}
            isPublic={false}
          />
        )}
      </ApplicationRoute>
    );
  },
});
