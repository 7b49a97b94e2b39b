import { createFileRoute, redirect } from '@tanstack/react-router';
import { ApplicationHomePage } from '@/features/applications/components/ApplicationHomePage';
import { fetchApplication } from '@/features/applications/api';
import { i18n } from '@/lib/i18n/setup';
import { translateServerError } from '@/lib/i18n/serverMessages';
import { showToast } from '@/lib/toast';

export const Route = createFileRoute('/_signedIn/applications/$applicationName/')({
  loader: async ({ params }) => {
    try {
      return await fetchApplication(params.applicationName);
    } catch (error) {
      // The application does not exist or cannot be read: back to the list, saying why.
      showToast('error', translateServerError(i18n, error));
      throw redirect({ to: '/applications' });
    }
  },
  component: function ApplicationHome() {
    const application = Route.useLoaderData();
    return <ApplicationHomePage key={application.id + application.version} application={application} />;
  },
});
