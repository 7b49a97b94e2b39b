import { createFileRoute } from '@tanstack/react-router';
import { ApplicationOutlineRoute } from '@/components/layout/ApplicationRoute';
import { RightsRequestPage } from '@/features/rights/components/RightsRequestPage';

export const Route = createFileRoute('/_signedIn/applications/$applicationName/authorizationsRequest/$requestId')({
  component: function RightsRequest() {
    const { applicationName, requestId } = Route.useParams();
    return (
      <ApplicationOutlineRoute applicationName={applicationName}>
        {(application) => (
          <RightsRequestPage key={`${applicationName}/${requestId}`} application={application} requestId={requestId} />
        )}
      </ApplicationOutlineRoute>
    );
  },
});
