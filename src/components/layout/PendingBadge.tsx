import { Link } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { CloudUpload } from 'lucide-react';
import { usePendingCount } from '@/offline/useOutbox';

/** The number of changes not yet applied by the server, leading to their list. Hidden when there are none. */
export function PendingBadge() {
  const { t } = useLingui();
  const count = usePendingCount();
  if (count === 0) return null;
  return (
    <Link
      to="/pendingChanges"
      className="inline-flex min-h-11 items-center gap-1 rounded-md px-2 font-semibold hover:bg-white/10"
      aria-label={t`${count} pending changes`}
      data-testid="pending-badge"
    >
      <CloudUpload className="size-5" aria-hidden />
      <span className="inline-flex min-w-6 justify-center rounded-full bg-accent px-1.5 text-sm text-accent-foreground">
        {count}
      </span>
    </Link>
  );
}
