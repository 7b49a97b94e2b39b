import { Trans } from '@lingui/react/macro';
import { CloudOff } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { useConnectivity } from '@/lib/connectivity';

/** Says so when the server cannot be reached; says nothing otherwise. */
export function ConnectionStatus() {
  const { reachable } = useConnectivity();
  if (reachable) return null;
  return (
    <Badge variant="destructive" role="status" data-testid="offline-badge" className="min-h-8">
      <CloudOff className="size-4" aria-hidden />
      <Trans>offline</Trans>
    </Badge>
  );
}
