import { createFileRoute } from '@tanstack/react-router';
import { ApplicationOutlineRoute } from '@/components/layout/ApplicationRoute';
import { RightsRequestsPage } from '@/features/rights/components/RightsRequestsPage';

export const Route = createFileRoute('/_signedIn/applications/$applicationName/authorizationsRequest/')({
  component: function RightsRequests() {
    const { applicationName } = Route.useParams();
    return (
      <ApplicationOutlineRoute applicationName={applicationName}>
        {(application) => <RightsRequestsPage key={applicationName} application={application} />}
      </ApplicationOutlineRoute>
    );
  },
});
