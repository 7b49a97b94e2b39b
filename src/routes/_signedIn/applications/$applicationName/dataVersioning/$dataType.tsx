import { createFileRoute } from '@tanstack/react-router';
import { EntryRoute } from '@/components/layout/EntryRoute';
import { DepositsPage } from '@/features/deposits/components/DepositsPage';

export const Route = createFileRoute('/_signedIn/applications/$applicationName/dataVersioning/$dataType')({
  component: function Deposits() {
    const { applicationName, dataType } = Route.useParams();
    return (
      <EntryRoute applicationName={applicationName} entryName={dataType} kind="dataType">
        {(application, entry) => (
          <DepositsPage key={`${applicationName}/${dataType}`} application={application} entry={entry} />
        )}
      </EntryRoute>
    );
  },
});
