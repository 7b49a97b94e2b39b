import { createFileRoute } from '@tanstack/react-router';
import { EntryRoute } from '@/components/layout/EntryRoute';
import { DepositsPage } from '@/features/deposits/components/DepositsPage';
import { outboxItemSearch } from '@/lib/outboxItemSearch';

export const Route = createFileRoute('/_signedIn/applications/$applicationName/dataVersioning/$dataType')({
  /** `outboxItem`: a refused deposit reopened from the pending changes, to be replaced by a corrected one. */
  validateSearch: outboxItemSearch,
  component: function Deposits() {
    const { applicationName, dataType } = Route.useParams();
    const { outboxItem } = Route.useSearch();
    return (
      <EntryRoute applicationName={applicationName} entryName={dataType} kind="dataType">
        {(application, entry) => (
          <DepositsPage
            key={`${applicationName}/${dataType}`}
            application={application}
            entry={entry}
            editedItem={outboxItem}
          />
        )}
      </EntryRoute>
    );
  },
});
