import { createFileRoute } from '@tanstack/react-router';
import { ApplicationRoute } from '@/components/layout/ApplicationRoute';
import { ApplicationUsersPage } from '@/features/rights/components/ApplicationUsersPage';

export const Route = createFileRoute(
  '/_signedIn/applications/$applicationName/authorizationsManagementForApplicationUsers',
)({
  component: function ApplicationUsers() {
    const { applicationName } = Route.useParams();
    return (
      <ApplicationRoute applicationName={applicationName}>
        {(application) => <ApplicationUsersPage key={applicationName} application={application} />}
      </ApplicationRoute>
    );
  },
});
