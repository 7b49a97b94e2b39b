import { Trans, useLingui } from '@lingui/react/macro';
import { CloudOff } from 'lucide-react';
import { Alert } from '@/components/ui/alert';

/** Says that what is shown comes from this device, and from when. */
export function OfflineNotice({ fetchedAt }: { fetchedAt: number }) {
  const { i18n } = useLingui();
  const when = i18n.date(new Date(fetchedAt), { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <Alert variant="warning" className="mb-4 flex items-center gap-2" data-testid="offline-notice">
      <CloudOff aria-hidden />
      <span>
        <Trans>Offline — data from {when}</Trans>
      </span>
    </Alert>
  );
}
