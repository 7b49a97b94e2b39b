import { createFileRoute } from '@tanstack/react-router';
import { ApplicationCreationPage } from '@/features/applications/components/ApplicationCreationPage';
import { useEditedUpload } from '@/features/applications/hooks/useEditedUpload';
import { outboxItemSearch } from '@/lib/outboxItemSearch';

export const Route = createFileRoute('/_signedIn/applicationCreation/')({
  validateSearch: outboxItemSearch,
  component: function ApplicationCreation() {
    const { outboxItem } = Route.useSearch();
    const { ready, edit } = useEditedUpload(outboxItem);
    return ready ? <ApplicationCreationPage key={outboxItem ?? 'new'} edit={edit} /> : null;
  },
});
