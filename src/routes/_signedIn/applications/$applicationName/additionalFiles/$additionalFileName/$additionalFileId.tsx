import { createFileRoute } from '@tanstack/react-router';
import { FileFormPage } from '@/features/additionalFiles/components/FileFormPage';
import { FileTypeRoute } from '@/features/additionalFiles/components/FileTypeRoute';
import { outboxItemSearch } from '@/lib/outboxItemSearch';

export const Route = createFileRoute(
  '/_signedIn/applications/$applicationName/additionalFiles/$additionalFileName/$additionalFileId',
)({
  /** `outboxItem`: a refused save reopened from the pending changes, to be replaced by a corrected one. */
  validateSearch: outboxItemSearch,
  component: function AdditionalFile() {
    const { applicationName, additionalFileName, additionalFileId } = Route.useParams();
    const { outboxItem } = Route.useSearch();
    return (
      <FileTypeRoute applicationName={applicationName} fileType={additionalFileName}>
        {(application, type) => (
          <FileFormPage
            key={`${applicationName}/${additionalFileName}/${additionalFileId}/${outboxItem ?? ''}`}
            application={application}
            type={type}
            fileId={additionalFileId}
            editedItem={outboxItem}
          />
        )}
      </FileTypeRoute>
    );
  },
});
