import { createFileRoute } from '@tanstack/react-router';
import { EntriesPage } from '@/features/data/components/EntriesPage';
import { outboxItemSearch } from '@/lib/outboxItemSearch';

export const Route = createFileRoute('/_signedIn/applications/$applicationName/references/')({
  /** `outboxItem`: a refused upload reopened from the pending changes, to be replaced by a new file. */
  validateSearch: outboxItemSearch,
  component: function References() {
    const { applicationName } = Route.useParams();
    const { outboxItem } = Route.useSearch();
    return (
      <EntriesPage key={applicationName} applicationName={applicationName} kind="reference" editedItem={outboxItem} />
    );
  },
});
