import { createFileRoute } from '@tanstack/react-router';
import { EntryRoute } from '@/components/layout/EntryRoute';
import { EntryConsultationPage } from '@/features/data/components/EntryConsultationPage';

export const Route = createFileRoute('/_signedIn/applications/$applicationName/references/$refType')({
  component: function ReferenceConsultation() {
    const { applicationName, refType } = Route.useParams();
    return (
      <EntryRoute applicationName={applicationName} entryName={refType} kind="reference">
        {(application, entry) => (
          <EntryConsultationPage key={`${applicationName}/${refType}`} application={application} entry={entry} />
        )}
      </EntryRoute>
    );
  },
});
