import { createFileRoute } from '@tanstack/react-router';
import { FileFormPage } from '@/features/additionalFiles/components/FileFormPage';
import { FileTypeRoute } from '@/features/additionalFiles/components/FileTypeRoute';

export const Route = createFileRoute(
  '/_signedIn/applications/$applicationName/additionalFiles/$additionalFileName/$additionalFileId',
)({
  component: function AdditionalFile() {
    const { applicationName, additionalFileName, additionalFileId } = Route.useParams();
    return (
      <FileTypeRoute applicationName={applicationName} fileType={additionalFileName}>
        {(application, type) => (
          <FileFormPage
            key={`${applicationName}/${additionalFileName}/${additionalFileId}`}
            application={application}
            type={type}
            fileId={additionalFileId}
          />
        )}
      </FileTypeRoute>
    );
  },
});
