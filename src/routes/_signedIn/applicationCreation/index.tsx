import { createFileRoute } from '@tanstack/react-router';
import { ApplicationCreationPage } from '@/features/applications/components/ApplicationCreationPage';

export const Route = createFileRoute('/_signedIn/applicationCreation/')({
  component: () => <ApplicationCreationPage />,
});
