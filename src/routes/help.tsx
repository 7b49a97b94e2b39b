import { createFileRoute } from '@tanstack/react-router';
import { HelpPage } from '@/features/help/components/HelpPage';
import { LanguageSwitcher } from '@/components/layout/LanguageSwitcher';

export const Route = createFileRoute('/help')({
  component: () => (
    <div className="mx-auto max-w-5xl p-4">
      <div className="flex justify-end">
        <LanguageSwitcher />
      </div>
      <HelpPage />
    </div>
  ),
});
