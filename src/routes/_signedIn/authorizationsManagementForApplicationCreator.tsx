import { createFileRoute, redirect } from '@tanstack/react-router';
import { CreatorRightsPage } from '@/features/creatorRights/components/CreatorRightsPage';
import { getCurrentUser } from '@/offline/currentUser';

export const Route = createFileRoute('/_signedIn/authorizationsManagementForApplicationCreator')({
  beforeLoad: () => {
    if (!getCurrentUser()?.terrainAdmin) throw redirect({ to: '/applications' });
  },
  component: CreatorRightsPage,
});
