import { createFileRoute } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { Alert } from '@/components/ui/alert';
import { ProfilePage } from '@/features/profile/components/ProfilePage';
import { fetchStoredUser } from '@/features/profile/api';
import { translateServerError } from '@/lib/i18n/serverMessages';
import { keptRead } from '@/offline/queryCache';

export const Route = createFileRoute('/_signedIn/users/$userIdOrLogin')({
  // Through the read cache: a profile seen once opens offline, with the date it was read.
  loader: ({ params }) => keptRead(['user', params.userIdOrLogin], () => fetchStoredUser(params.userIdOrLogin)),
  component: function Profile() {
    const { value: user, offlineSince } = Route.useLoaderData();
    return <ProfilePage key={user.id} initialUser={user} offlineSince={offlineSince} />;
  },
  errorComponent: function ProfileError({ error }) {
    const { i18n } = useLingui();
    return <Alert variant="destructive">{translateServerError(i18n, error)}</Alert>;
  },
});
