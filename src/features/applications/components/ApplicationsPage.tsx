import { Trans } from '@lingui/react/macro';
import { FolderOpen } from 'lucide-react';
import { PageHeader } from '@/components/layout/PageHeader';
import { Card, CardContent } from '@/components/ui/card';

/** The application list. Applications arrive with their own feature; until one exists the list says so. */
export function ApplicationsPage() {
  return (
    <div>
      <PageHeader title={<Trans>Applications</Trans>} />
      <Card>
        <CardContent className="flex flex-col items-center gap-3 py-12 text-center">
          <FolderOpen className="size-12 text-muted-foreground" aria-hidden />
          <p className="text-lg font-medium">
            <Trans>No application yet.</Trans>
          </p>
        </CardContent>
      </Card>
    </div>
  );
}
