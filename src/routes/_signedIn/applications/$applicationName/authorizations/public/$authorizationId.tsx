import { createFileRoute } from '@tanstack/react-router';
import { ApplicationRoute } from '@/components/layout/ApplicationRoute';
import { AuthorizationForm } from '@/features/rights/components/AuthorizationForm';
import { outboxItemSearch } from '@/lib/outboxItemSearch';

export const Route = createFileRoute('/_signedIn/applications/$applicationName/authorizations/public/$authorizationId')({
  /** `outboxItem`: a refused change reopened from the pending changes, to be replaced by a corrected one. */
  validateSearch: outboxItemSearch,
  component: function Authorization() {
    const { applicationName, authorizationId } = Route.useParams();
    const { outboxItem } = Route.useSearch();
    return (
      <ApplicationRoute applicationName={applicationName}>
        {(application) => <AuthorizationForm key={`${applicationName}/${authorizationId}`} application={application} authorizationId={authorizationId} isPublic={true} editedItem={outboxItem} />}
      </ApplicationRoute>
    );
  },
});
