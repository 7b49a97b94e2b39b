import { createFileRoute } from '@tanstack/react-router';
import { ApplicationCreationPage } from '@/features/applications/components/ApplicationCreationPage';
import { useEditedUpload } from '@/features/applications/hooks/useEditedUpload';
import { outboxItemSearch } from '@/lib/outboxItemSearch';

export const Route = createFileRoute('/_signedIn/applicationCreation/$applicationName/$applicationVersion')({
  validateSearch: outboxItemSearch,
  component: function ApplicationUpdate() {
    const { applicationName, applicationVersion } = Route.useParams();
    const { outboxItem } = Route.useSearch();
    const { ready, edit } = useEditedUpload(outboxItem);
    return ready ? (
      <ApplicationCreationPage
        key={`${applicationName}/${applicationVersion}/${outboxItem ?? ''}`}
        current={{ name: applicationName, version: applicationVersion }}
        edit={edit}
      />
    ) : null;
  },
});
