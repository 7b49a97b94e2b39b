import { createFileRoute } from '@tanstack/react-router';
import { ApplicationCreationPage } from '@/features/applications/components/ApplicationCreationPage';

export const Route = createFileRoute('/_signedIn/applicationCreation/$applicationName/$applicationVersion')({
  component: function ApplicationUpdate() {
    const { applicationName, applicationVersion } = Route.useParams();
    return <ApplicationCreationPage key={`${applicationName}/${applicationVersion}`} current={{ name: applicationName, version: applicationVersion }} />;
  },
});
