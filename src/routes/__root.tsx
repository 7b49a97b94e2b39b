import { Outlet, createRootRoute } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { Toaster } from '@/components/ui/toaster';
import { UpdatePrompt } from '@/components/layout/UpdatePrompt';

function RootLayout() {
  const { t } = useLingui();
  return (
    <>
      <Outlet />
      <Toaster closeLabel={t`Close`} regionLabel={t`Notifications`} />
      <UpdatePrompt />
    </>
  );
}

export const Route = createRootRoute({ component: RootLayout });
