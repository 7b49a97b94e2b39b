import { createFileRoute } from '@tanstack/react-router';
import { ApplicationCreationPage } from '@/features/applications/components/ApplicationCreationPage';
import { useEditedUpload } from '@/features/applications/hooks/useEditedUpload';

export const Route = createFileRoute('/_signedIn/applicationCreation/$applicationName/$applicationVersion')({
  validateSearch: (search: Record<string, unknown>): { outboxItem?: number } =>
    Number.isInteger(Number(search.outboxItem)) && search.outboxItem !== undefined
      ? { outboxItem: Number(search.outboxItem) }
      : {},
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
