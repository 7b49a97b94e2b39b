import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Alert } from '@/components/ui/alert';
import { describeChange } from '@/offline/describeChange';
import { useWaitingChangesOf } from '@/offline/useOutbox';

/** Enough to recognise one's work; the pending changes page, once signed in, lists the rest. */
const SHOWN = 5;

/**
 * The changes `login` made on this device that wait for their session: a session that expired while the device
 * was offline leads here, and the person should know their work is kept and goes once they sign in.
 */
export function WaitingChangesNotice({ login }: { login: string }) {
  const { i18n } = useLingui();
  const waiting = useWaitingChangesOf(login);
  if (login === '' || !waiting || waiting.length === 0) return null;
  const more = waiting.length - SHOWN;
  return (
    <Alert data-testid="waiting-changes">
      <p className="font-medium">
        <Plural
          value={waiting.length}
          one={`# change made by ${login} waits on this device: it is sent as soon as you sign in.`}
          other={`# changes made by ${login} wait on this device: they are sent as soon as you sign in.`}
        />
      </p>
      <ul className="mt-1 list-disc pl-5 text-sm">
        {waiting.slice(0, SHOWN).map((item) => (
          <li key={item.id}>{describeChange(i18n, item)}</li>
        ))}
      </ul>
      {more > 0 ? (
        <p className="text-sm">
          <Trans>… and {more} more.</Trans>
        </p>
      ) : null}
    </Alert>
  );
}
