import { useEffect, useState, type ReactNode } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';
import { LoaderCircle } from 'lucide-react';
import { mustSignOnDevice } from '@/domain/applications/charter';
import { useCurrentUser } from '@/offline/currentUser';
import { useOutboxItems } from '@/offline/useOutbox';
import { acceptancesInOutbox } from '../acceptances';
import { charterViewOf, type CharterView } from '../api';
import { CharterDialog } from './CharterDialog';

type Known = { state: 'checking' } | { state: 'known'; view: CharterView } | { state: 'unknown' };

/**
 * Every page of an application passes here first (cards, home buttons, deep links alike): a user who must accept
 * the application's charter sees it before the page, and the page's data calls only start once it is accepted.
 * When the application cannot be read at all, the page is shown and says why itself.
 */
export function CharterGate({ applicationName, children }: { applicationName: string; children: ReactNode }) {
  const navigate = useNavigate();
  const user = useCurrentUser();
  const items = useOutboxItems();
  const [known, setKnown] = useState<Known>({ state: 'checking' });
  // Decided once per visit: the outbox changes while an acceptance is being sent, and the page behind must not
  // start its data calls before the server has recorded it.
  const [decision, setDecision] = useState<'ask' | 'pass'>();

  useEffect(() => {
    let live = true;
    void charterViewOf(applicationName).then(
      (view) => live && setKnown(view ? { state: 'known', view } : { state: 'unknown' }),
    );
    return () => {
      live = false;
    };
  }, [applicationName]);

  if (decision === undefined && known.state !== 'checking' && items !== undefined) {
    const ask =
      known.state === 'known' &&
      mustSignOnDevice(known.view, user?.chartes[known.view.id], acceptancesInOutbox(items, known.view.id));
    setDecision(ask ? 'ask' : 'pass');
  }
  if (decision === undefined) {
    return (
      <p className="flex items-center gap-2 text-muted-foreground" role="status">
        <LoaderCircle className="size-5 animate-spin" aria-hidden />
        <Trans>Opening the application…</Trans>
      </p>
    );
  }
  if (decision === 'ask' && known.state === 'known') {
    return (
      <CharterDialog
        application={known.view}
        onAccepted={() => setDecision('pass')}
        onRefused={() => void navigate({ to: '/applications' })}
      />
    );
  }
  return <>{children}</>;
}
