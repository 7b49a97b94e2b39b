import { createFileRoute } from '@tanstack/react-router';
import { ApplicationOutlineRoute } from '@/components/layout/ApplicationRoute';
import { RightsRequestPage } from '@/features/rights/components/RightsRequestPage';
import { outboxItemSearch } from '@/lib/outboxItemSearch';

export const Route = createFileRoute('/_signedIn/applications/$applicationName/authorizationsRequest/$requestId')({
  /** `outboxItem`: a refused change reopened from the pending changes, to be replaced by a corrected one. */
  validateSearch: outboxItemSearch,
  component: function RightsRequest() {
    const { applicationName, requestId } = Route.useParams();
    const { outboxItem } = Route.useSearch();
    return (
      <ApplicationOutlineRoute applicationName={applicationName}>
        {(application) => (
          <RightsRequestPage
            key={`${applicationName}/${requestId}`}
            application={application}
            requestId={requestId}
            editedItem={outboxItem}
          />
        )}
      </ApplicationOutlineRoute>
    );
  },
});
