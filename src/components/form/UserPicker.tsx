import { useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Plus, X } from 'lucide-react';
import { Input } from '@/components/ui/input';
import { addressesShown, offeredUsers, type PickerUser } from './offeredUsers';

const SHOWN = 8;

/** The chosen users as removable chips, and a search that offers the others as large buttons. */
export function UserPicker({
  users,
  chosen,
  onChange,
  label,
  invalid,
}: {
  users: PickerUser[];
  chosen: string[];
  onChange(ids: string[]): void;
  label: string;
  invalid?: boolean;
}) {
  const { t, i18n } = useLingui();
  const [search, setSearch] = useState('');
  const text = search.trim().toLowerCase();
  const byId = new Map(users.map((user) => [user.id, user]));
  const offered = offeredUsers(users, chosen, text);
  const byAddress = addressesShown(users);
  const shownCount = i18n.number(SHOWN);
  const matchCount = i18n.number(offered.length);
  return (
    <div className="grid min-w-0 grid-cols-1 gap-2">
      <ul className="flex flex-wrap gap-1" aria-label={t`Chosen users`}>
        {chosen.map((id) => (
          <li
            key={id}
            className="inline-flex items-center gap-1 rounded-full bg-secondary py-0.5 pl-3 text-sm"
            data-testid="chosen-user"
          >
            {byId.get(id)?.login ?? id}
            <button
              type="button"
              className="inline-flex size-11 items-center justify-center rounded-full hover:bg-black/10"
              aria-label={t`Remove ${byId.get(id)?.login ?? id}`}
              onClick={() => onChange(chosen.filter((c) => c !== id))}
            >
              <X className="size-4" aria-hidden />
            </button>
          </li>
        ))}
      </ul>
      <Input
        type="search"
        aria-label={label}
        aria-invalid={invalid || undefined}
        placeholder={byAddress ? t`Search a login or an e-mail` : t`Search a login`}
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      {offered.length ? (
        <ul className="grid grid-cols-1 gap-1 sm:grid-cols-2">
          {offered.slice(0, SHOWN).map((user) => (
            <li key={user.id} className="min-w-0">
              <button
                type="button"
                className="flex min-h-11 w-full items-center gap-2 rounded-md border border-border px-3 text-left hover:bg-accent/20"
                onClick={() => {
                  onChange([...chosen, user.id]);
                  setSearch('');
                }}
              >
                <Plus className="size-4 shrink-0" aria-hidden />
                <span className="min-w-0 truncate">
                  {user.login}
                  {user.email === undefined ? null : (
                    <>
                      {' '}
                      <span className="text-muted-foreground">{user.email}</span>
                    </>
                  )}
                </span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {offered.length > SHOWN ? (
        // Never a list cut without a word: how many match, and how to reach the others.
        <p className="text-sm text-muted-foreground" data-testid="more-users">
          {byAddress
            ? t`${shownCount} of ${matchCount} matching users shown: type more of the login or e-mail.`
            : t`${shownCount} of ${matchCount} matching users shown: type more of the login.`}
        </p>
      ) : offered.length === 0 && text !== '' ? (
        <p className="text-sm text-muted-foreground">{t`No other user matches.`}</p>
      ) : null}
    </div>
  );
}
