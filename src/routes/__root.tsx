import { Outlet, createRootRoute } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { Toaster } from '@/components/ui/toaster';
import { UpdatePrompt } from '@/components/layout/UpdatePrompt';
import { DeviceDataNotice } from '@/components/layout/DeviceDataNotice';

function RootLayout() {
  const { t } = useLingui();
  return (
    <>
      <DeviceDataNotice />
      <Outlet />
      <Toaster closeLabel={t`Close`} regionLabel={t`Notifications`} />
      <UpdatePrompt />
    </>
  );
}

export const Route = createRootRoute({ component: RootLayout });
