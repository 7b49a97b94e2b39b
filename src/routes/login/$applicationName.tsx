import { createFileRoute } from '@tanstack/react-router';
import { LoginPage } from '@/features/auth/components/LoginPage';
import { LanguageSwitcher } from '@/components/layout/LanguageSwitcher';

export const Route = createFileRoute('/login/$applicationName')({
  validateSearch: (search: Record<string, unknown>): { loggedOut?: boolean } =>
    search.loggedOut ? { loggedOut: true } : {},
  component: function LoginToApplication() {
    const { applicationName } = Route.useParams();
    const { loggedOut } = Route.useSearch();
    return (
      <LoginPage
        applicationName={applicationName}
        loggedOut={Boolean(loggedOut)}
        languageSelect={<LanguageSwitcher />}
      />
    );
  },
});
