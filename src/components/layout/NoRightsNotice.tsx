import type { ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';
import { HandHelping } from 'lucide-react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';

/** Says why the data cannot be shown and leads to the application's rights request form. */
export function NoRightsNotice({ applicationName, children }: { applicationName: string; children: ReactNode }) {
  return (
    <Alert variant="destructive" className="flex flex-wrap items-center justify-between gap-2" data-testid="no-rights">
      <span>{children}</span>
      <Button asChild variant="outline">
        <Link
          to="/applications/$applicationName/authorizationsRequest/$requestId"
          params={{ applicationName, requestId: 'new' }}
        >
          <HandHelping aria-hidden />
          <Trans>Request rights</Trans>
        </Link>
      </Button>
    </Alert>
  );
}
