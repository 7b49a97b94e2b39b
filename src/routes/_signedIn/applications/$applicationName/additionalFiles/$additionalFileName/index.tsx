import { createFileRoute } from '@tanstack/react-router';
import { FilesPage } from '@/features/additionalFiles/components/FilesPage';
import { FileTypeRoute } from '@/features/additionalFiles/components/FileTypeRoute';

export const Route = createFileRoute('/_signedIn/applications/$applicationName/additionalFiles/$additionalFileName/')({
  component: function AdditionalFilesOfType() {
    const { applicationName, additionalFileName } = Route.useParams();
    return (
      <FileTypeRoute applicationName={applicationName} fileType={additionalFileName}>
        {(application, type) => (
          <FilesPage key={`${applicationName}/${additionalFileName}`} application={application} type={type} />
        )}
      </FileTypeRoute>
    );
  },
});
