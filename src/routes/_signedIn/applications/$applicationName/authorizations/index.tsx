import { createFileRoute } from '@tanstack/react-router';
import { ApplicationRoute } from '@/components/layout/ApplicationRoute';
import { AuthorizationsPage } from '@/features/rights/components/AuthorizationsPage';

export const Route = createFileRoute('/_signedIn/applications/$applicationName/authorizations/')({
  component: function Authorizations() {
    const { applicationName } = Route.useParams();
    return (
      <ApplicationRoute applicationName={applicationName}>
        {(application) => <AuthorizationsPage key={applicationName} application={application} />}
      </ApplicationRoute>
    );
  },
});
