import { createFileRoute } from '@tanstack/react-router';
import { LoginPage } from '@/features/auth/components/LoginPage';
import { LanguageSwitcher } from '@/components/layout/LanguageSwitcher';

interface LoginSearch {
  loggedOut?: boolean;
}

export const Route = createFileRoute('/login/')({
  validateSearch: (search: Record<string, unknown>): LoginSearch => (search.loggedOut ? { loggedOut: true } : {}),
  component: function Login() {
    const { loggedOut } = Route.useSearch();
    return <LoginPage loggedOut={Boolean(loggedOut)} languageSelect={<LanguageSwitcher />} />;
  },
});
