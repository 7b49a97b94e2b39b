import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nProvider } from '@lingui/react';
import { RouterProvider, createRouter } from '@tanstack/react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { routeTree } from './routeTree.gen';
import { activateLanguage, i18n, initialLanguage } from './lib/i18n/setup';
import { queryClient } from './offline/queryCache';
import { openDeviceData } from './offline/deviceData';
import { PageError } from './components/layout/PageError';
import { removeLeftDownloads } from './lib/streamedSave';
import './styles.css';

const router = createRouter({
  routeTree,
  defaultPreload: 'intent',
  scrollRestoration: true,
  defaultErrorComponent: PageError,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

async function start() {
  // Opened here, its failure (no room for an upgrade, another error) is told once by DeviceDataNotice, and the
  // screens go on online without the device's data, instead of the first one reading it failing as a whole.
  void openDeviceData();
  void removeLeftDownloads();
  await activateLanguage(initialLanguage());
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <I18nProvider i18n={i18n}>
          <RouterProvider router={router} />
        </I18nProvider>
      </QueryClientProvider>
    </StrictMode>,
  );
}

// A language's messages are a chunk of their own: when it cannot be fetched, public/start-guard.js reloads the page
// or says the start failed, instead of a blank page.
start().catch(() => window.dispatchEvent(new Event('terrain:start-failed')));
