import { Outlet, createFileRoute } from '@tanstack/react-router';
import { CharterGate } from '@/features/charter/components/CharterGate';

/** Every page of an application: the charter step first, for whoever must accept it. */
export const Route = createFileRoute('/_signedIn/applications/$applicationName')({
  component: function ApplicationPages() {
    const { applicationName } = Route.useParams();
    return (
      <CharterGate key={applicationName} applicationName={applicationName}>
        <Outlet />
      </CharterGate>
    );
  },
});
