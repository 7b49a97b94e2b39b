import { createFileRoute } from '@tanstack/react-router';
import { ReferencesPage } from '@/features/references/components/ReferencesPage';

export const Route = createFileRoute('/_signedIn/applications/$applicationName/references/')({
  component: function References() {
    const { applicationName } = Route.useParams();
    return <ReferencesPage key={applicationName} applicationName={applicationName} />;
  },
});
