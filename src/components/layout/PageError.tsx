import { Link, type ErrorComponentProps } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { RefreshCw } from 'lucide-react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ApiError } from '@/lib/api/apiError';
import { translateServerError } from '@/lib/i18n/serverMessages';

/**
 * What a page that could not open shows, for every route without its own: why, translated, and a way on. Most
 * often a part of the application that could not be fetched (the router has already reloaded once for it).
 */
export function PageError({ error }: ErrorComponentProps) {
  const { i18n } = useLingui();
  return (
    <main className="mx-auto max-w-xl space-y-4 p-6">
      <h1 className="text-2xl font-semibold">
        <Trans>This page could not be opened</Trans>
      </h1>
      <Alert variant="destructive">
        {error instanceof ApiError ? (
          translateServerError(i18n, error)
        ) : (
          <Trans>
            Part of the application could not be loaded or shown. Reload the page; if this happens again, check the
            connection.
          </Trans>
        )}
      </Alert>
      <div className="flex flex-wrap gap-2">
        <Button onClick={() => window.location.reload()}>
          <RefreshCw aria-hidden />
          <Trans>Reload the page</Trans>
        </Button>
        <Button asChild variant="outline">
          <Link to="/applications">
            <Trans>Applications</Trans>
          </Link>
        </Button>
      </div>
    </main>
  );
}
