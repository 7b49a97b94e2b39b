import { createFileRoute } from '@tanstack/react-router';
import { EntriesPage } from '@/features/data/components/EntriesPage';

export const Route = createFileRoute('/_signedIn/applications/$applicationName/references/')({
  component: function References() {
    const { applicationName } = Route.useParams();
    return <EntriesPage key={applicationName} applicationName={applicationName} kind="reference" />;
  },
});
