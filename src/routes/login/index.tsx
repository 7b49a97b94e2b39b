import { createFileRoute } from '@tanstack/react-router';
import { LoginPage } from '@/features/auth/components/LoginPage';
import { LanguageSwitcher } from '@/components/layout/LanguageSwitcher';

interface LoginSearch {
  loggedOut?: boolean;
  /** Whose session expired. */
  login?: string;
}

export const Route = createFileRoute('/login/')({
  validateSearch: (search: Record<string, unknown>): LoginSearch => ({
    ...(search.loggedOut ? { loggedOut: true } : {}),
    ...(typeof search.login === 'string' ? { login: search.login } : {}),
  }),
  component: function Login() {
    const { loggedOut, login } = Route.useSearch();
    return <LoginPage loggedOut={Boolean(loggedOut)} expiredLogin={login} languageSelect={<LanguageSwitcher />} />;
  },
});
