import { createFileRoute } from '@tanstack/react-router';
import { PendingChangesPage } from '@/features/pendingChanges/components/PendingChangesPage';

export const Route = createFileRoute('/_signedIn/pendingChanges')({
  component: PendingChangesPage,
});
