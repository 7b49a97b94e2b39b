import { createFileRoute, redirect } from '@tanstack/react-router';
import { ApplicationHomePage } from '@/features/applications/components/ApplicationHomePage';
import { loadApplication } from '@/features/applications/loadApplication';
import { i18n } from '@/lib/i18n/setup';
import { translateServerError } from '@/lib/i18n/serverMessages';
import { showToast } from '@/lib/toast';

export const Route = createFileRoute('/_signedIn/applications/$applicationName/')({
  loader: async ({ params }) => {
    try {
      return await loadApplication(params.applicationName);
    } catch (error) {
      // The application does not exist or cannot be read: back to the list, saying why.
      showToast('error', translateServerError(i18n, error));
      throw redirect({ to: '/applications' });
    }
  },
  component: function ApplicationHome() {
    const { view, offlineSince } = Route.useLoaderData();
    return <ApplicationHomePage key={view.id + view.version} application={view} offlineSince={offlineSince} />;
  },
});
