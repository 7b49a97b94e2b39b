import { useEffect, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { Logo } from '@/components/layout/Logo';
import { showToast } from '@/lib/toast';
import { RegisterForm } from './RegisterForm';
import { SignInForm } from './SignInForm';

interface LoginPageProps {
  applicationName?: string;
  /** Arrived here from another page of the portal: the session is over. */
  loggedOut: boolean;
  /** Whose session expired, to sign them in again (and show their waiting changes). */
  expiredLogin?: string;
  /** The language selector, provided by the layout. */
  languageSelect: React.ReactNode;
}

export function LoginPage({ applicationName, loggedOut, expiredLogin, languageSelect }: LoginPageProps) {
  const { t } = useLingui();
  const [tab, setTab] = useState<'signIn' | 'register'>('signIn');
  const [signInLogin, setSignInLogin] = useState(expiredLogin ?? '');

  // Once per arrival, not again when the language (and so `t`) changes.
  const [announced, setAnnounced] = useState(false);
  useEffect(() => {
    if (loggedOut && !announced) {
      setAnnounced(true);
      showToast('success', t`You have been logged out.`);
    }
  }, [loggedOut, announced, t]);

  return (
    <div className="flex min-h-dvh flex-col">
      <header className="flex justify-end p-2">{languageSelect}</header>
      <main className="mx-auto flex w-full max-w-md flex-1 flex-col justify-center gap-6 px-4 pb-10">
        <div className="flex items-center gap-3">
          <Logo className="size-14" />
          <div>
            <h1 className="text-3xl font-bold text-primary">Terrain</h1>
            <p className="text-muted-foreground">
              {applicationName ? (
                <Trans>Sign in to open the application {applicationName}</Trans>
              ) : (
                <Trans>Research-data applications, on the field and offline</Trans>
              )}
            </p>
          </div>
        </div>
        <Card>
          <Tabs value={tab} onValueChange={(value) => setTab(value as typeof tab)}>
            <CardHeader className="pb-0">
              <TabsList className="grid grid-cols-2">
                <TabsTrigger value="signIn">
                  <Trans>Sign in</Trans>
                </TabsTrigger>
                <TabsTrigger value="register">
                  <Trans>Register</Trans>
                </TabsTrigger>
              </TabsList>
            </CardHeader>
            <CardContent className="pt-2">
              <TabsContent value="signIn">
                <SignInForm key={signInLogin} applicationName={applicationName} initialLogin={signInLogin} />
              </TabsContent>
              <TabsContent value="register">
                <RegisterForm
                  onActivated={(login) => {
                    setSignInLogin(login);
                    setTab('signIn');
                  }}
                />
              </TabsContent>
            </CardContent>
          </Tabs>
        </Card>
      </main>
    </div>
  );
}
