import { useLingui } from '@lingui/react/macro';
import type { StoredUser } from '@/domain/accounts/user';

/** The stored account, one field a row: readable on a phone without sideways scrolling. */
export function CurrentValues({ user }: { user: StoredUser }) {
  const { t, i18n } = useLingui();
  const date = (iso: string) => i18n.date(new Date(iso), { dateStyle: 'long', timeStyle: 'short' });
  const states: Record<StoredUser['accountstate'], string> = {
    idle: t`waiting for activation`,
    active: t`active`,
    pending: t`pending`,
    closed: t`closed`,
  };
  const charters = Object.entries(user.chartes);
  const rows: Array<[string, string]> = [
    [t`Identifier`, user.id],
    [t`Login`, user.login],
    [t`E-mail`, user.email],
    ...(user.pendingEmail ? ([[t`E-mail waiting for its key`, user.pendingEmail]] as Array<[string, string]>) : []),
    [t`Account state`, states[user.accountstate]],
    [t`Platform administrator`, user.terrainAdmin ? t`yes` : t`no`],
    [t`Applications you may create`, user.authorizations.length > 0 ? user.authorizations.join(', ') : t`none`],
    [
      t`Charters accepted`,
      charters.length > 0 ? charters.map(([app, when]) => `${app} (${date(when)})`).join(', ') : t`none`,
    ],
    [t`Created on`, date(user.creationDate)],
    [t`Updated on`, date(user.updateDate)],
  ];
  return (
    <table className="w-full border-collapse text-left" data-testid="current-values">
      <caption className="sr-only">{t`Your account as stored`}</caption>
      <tbody>
        {rows.map(([label, value]) => (
          <tr key={label} className="border-b border-border last:border-0">
            <th scope="row" className="w-2/5 py-3 pr-3 align-top font-medium text-muted-foreground">
              {label}
            </th>
            <td className="py-3 [overflow-wrap:anywhere]">{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
