import { createFileRoute } from '@tanstack/react-router';
import { EntryRoute } from '@/components/layout/EntryRoute';
import { EntryConsultationPage } from '@/features/data/components/EntryConsultationPage';

export const Route = createFileRoute('/_signedIn/applications/$applicationName/dataTypes/$dataType')({
  component: function DataTypeConsultation() {
    const { applicationName, dataType } = Route.useParams();
    return (
      <EntryRoute applicationName={applicationName} entryName={dataType} kind="dataType">
        {(application, entry) => (
          <EntryConsultationPage key={`${applicationName}/${dataType}`} application={application} entry={entry} />
        )}
      </EntryRoute>
    );
  },
});
