import { useLingui } from '@lingui/react/macro';

/**
 * Who did something in the application a restored version or file was backed up from. Shown as text under the
 * account credited here (the restorer): a backup may name anyone, so the name is never taken for an account.
 */
export function InTheBackup({ login }: { login: string | null }) {
  const { t } = useLingui();
  return login === null ? null : (
    <span className="block text-xs text-muted-foreground">{t`in the backup: ${login}`}</span>
  );
}
