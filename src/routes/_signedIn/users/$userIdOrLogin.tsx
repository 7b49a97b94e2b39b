import { createFileRoute } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { Alert } from '@/components/ui/alert';
import { ProfilePage } from '@/features/profile/components/ProfilePage';
import { fetchStoredUser } from '@/features/profile/api';
import { translateServerError } from '@/lib/i18n/serverMessages';

export const Route = createFileRoute('/_signedIn/users/$userIdOrLogin')({
  loader: ({ params }) => fetchStoredUser(params.userIdOrLogin),
  component: function Profile() {
    const user = Route.useLoaderData();
    return <ProfilePage key={user.id} initialUser={user} />;
  },
  errorComponent: function ProfileError({ error }) {
    const { i18n } = useLingui();
    return <Alert variant="destructive">{translateServerError(i18n, error)}</Alert>;
  },
});
