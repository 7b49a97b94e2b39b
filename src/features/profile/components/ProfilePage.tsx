import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import type { StoredUser } from '@/domain/accounts/user';
import { Card, CardContent } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { PageHeader } from '@/components/layout/PageHeader';
import { OfflineNotice } from '@/components/layout/OfflineNotice';
import { getCurrentUser, setCurrentUser } from '@/offline/currentUser';
import { CurrentValues } from './CurrentValues';
import { EmailChangeForm } from './EmailChangeForm';
import { PasswordChangeForm } from './PasswordChangeForm';
import { KeptDevices } from './KeptDevices';
import { fetchStoredUser } from '../api';

export function ProfilePage({ initialUser, offlineSince }: { initialUser: StoredUser; offlineSince?: number }) {
  const { t } = useLingui();
  const [user, setUser] = useState(initialUser);
  const isSelf = getCurrentUser()?.id === user.id;

  async function refresh(result: { email: string; accountState: StoredUser['accountstate'] }) {
    const signedIn = getCurrentUser();
    // The stored copy of the signed-in user follows the change, as the profile screen promises.
    if (signedIn && signedIn.id === user.id)
      setCurrentUser({ ...signedIn, email: result.email, state: result.accountState });
    setUser(await fetchStoredUser(user.id));
  }

  return (
    <div>
      <PageHeader title={<Trans>Profile of {user.login}</Trans>} description={user.email} />
      {offlineSince ? <OfflineNotice fetchedAt={offlineSince} /> : null}
      <Tabs defaultValue="values">
        <TabsList aria-label={t`Profile sections`}>
          <TabsTrigger value="values">
            <Trans>Current values</Trans>
          </TabsTrigger>
          {isSelf ? (
            <>
              <TabsTrigger value="email">
                <Trans>Change e-mail</Trans>
              </TabsTrigger>
              <TabsTrigger value="password">
                <Trans>Change password</Trans>
              </TabsTrigger>
              <TabsTrigger value="devices">
                <Trans>Devices</Trans>
              </TabsTrigger>
            </>
          ) : null}
        </TabsList>
        <Card className="mt-4">
          <CardContent className="pt-5">
            <TabsContent value="values" className="mt-0">
              <CurrentValues user={user} />
            </TabsContent>
            {isSelf ? (
              <>
                <TabsContent value="email" className="mt-0">
                  <EmailChangeForm user={user} onChanged={(result) => void refresh(result)} />
                </TabsContent>
                <TabsContent value="password" className="mt-0">
                  <PasswordChangeForm login={user.login} />
                </TabsContent>
                <TabsContent value="devices" className="mt-0">
                  <KeptDevices />
                </TabsContent>
              </>
            ) : null}
          </CardContent>
        </Card>
      </Tabs>
    </div>
  );
}
