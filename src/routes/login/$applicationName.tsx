import { createFileRoute } from '@tanstack/react-router';
import { LoginPage } from '@/features/auth/components/LoginPage';
import { LanguageSwitcher } from '@/components/layout/LanguageSwitcher';

export const Route = createFileRoute('/login/$applicationName')({
  validateSearch: (search: Record<string, unknown>): { loggedOut?: boolean; login?: string } => ({
    ...(search.loggedOut ? { loggedOut: true } : {}),
    ...(typeof search.login === 'string' ? { login: search.login } : {}),
  }),
  component: function LoginToApplication() {
    const { applicationName } = Route.useParams();
    const { loggedOut, login } = Route.useSearch();
    return (
      <LoginPage
        applicationName={applicationName}
        loggedOut={Boolean(loggedOut)}
        expiredLogin={login}
        languageSelect={<LanguageSwitcher />}
      />
    );
  },
});
