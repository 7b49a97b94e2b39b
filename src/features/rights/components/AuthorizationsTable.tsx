import { Fragment, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { ChevronDown, ChevronRight, Eye, Pencil, Trash2 } from 'lucide-react';
import type { ApplicationModel } from '@/domain/configuration/model';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import type { AuthorizationView } from '../api';
import type { AuthorizationsListing } from '../hooks/useAuthorizationsListing';
import { PrivilegeSummary } from './PrivilegeSummary';

interface AuthorizationsTableProps {
  applicationName: string;
  model: ApplicationModel;
  scopeLabels: ReadonlyMap<string, string>;
  listing: AuthorizationsListing;
  roles: { isAdministrator: boolean; userManager: boolean };
  onDetail: (authorization: AuthorizationView) => void;
  onRevoke: (authorization: AuthorizationView) => void;
}

/** One page of authorizations (their users and rights unfold) or of users (their rights unfold), as the listing says. */
export function AuthorizationsTable({
  applicationName,
  model,
  scopeLabels,
  listing,
  roles,
  onDetail,
  onRevoke,
}: AuthorizationsTableProps) {
  const { t, i18n } = useLingui();
  // A user's authorizations by name, each name once with how many bear it: authorizations of one name (35 "Reading
  // counts") read as one name repeated across the row.
  const heldNames = (held: ReadonlyArray<{ name: string }>) => {
    const counts = new Map<string, number>();
    for (const { name } of held) counts.set(name, (counts.get(name) ?? 0) + 1);
    return [...counts].map(([name, count]) => (count > 1 ? `${name} (×${i18n.number(count)})` : name)).join(', ');
  };
  const [open, setOpen] = useState<Set<string>>(new Set());
  const toggle = (key: string) =>
    setOpen((current) => new Set(current.has(key) ? [...current].filter((k) => k !== key) : [...current, key]));
  const { mode, descending } = listing;
  return (
    <Table data-testid="authorizations-table">
      <TableHeader>
        <TableRow>
          <TableHead className="w-12">
            <span className="sr-only">{t`Open`}</span>
          </TableHead>
          <TableHead aria-sort={descending ? 'descending' : 'ascending'}>
            <button type="button" className="min-h-11" onClick={listing.toggleOrder}>
              {mode === 'byName' ? <Trans>Authorization</Trans> : <Trans>User</Trans>} {descending ? '↓' : '↑'}
            </button>
          </TableHead>
          <TableHead className="hidden sm:table-cell">
            {mode === 'byName' ? <Trans>Description</Trans> : <Trans>Authorizations</Trans>}
          </TableHead>
          <TableHead>
            <span className="sr-only">{t`Actions`}</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {mode === 'byName'
          ? listing.namesOfPage.map((authorization) => (
              <Fragment key={authorization.uuid}>
                <TableRow data-testid="authorization-row" data-name={authorization.name}>
                  <TableCell>
                    <Button
                      variant="ghost"
                      size="icon"
                      aria-expanded={open.has(authorization.uuid)}
                      aria-label={t`Show the users and rights of ${authorization.name}`}
                      onClick={() => toggle(authorization.uuid)}
                    >
                      {open.has(authorization.uuid) ? <ChevronDown aria-hidden /> : <ChevronRight aria-hidden />}
                    </Button>
                  </TableCell>
                  <TableCell>
                    <span className="font-medium">{authorization.name}</span>
                    <span className="block text-sm text-muted-foreground sm:hidden">{authorization.description}</span>
                  </TableCell>
                  <TableCell className="hidden sm:table-cell">{authorization.description}</TableCell>
                  <TableCell className="whitespace-nowrap px-1 sm:px-3">
                    <Button
                      variant="ghost"
                      size="icon"
                      aria-label={t`Details of ${authorization.name}`}
                      onClick={() => onDetail(authorization)}
                    >
                      <Eye aria-hidden />
                    </Button>
                    {roles.isAdministrator || roles.userManager ? (
                      <Button asChild variant="ghost" size="icon">
                        <Link
                          to={
                            authorization.isPublic
                              ? '/applications/$applicationName/authorizations/public/$authorizationId'
                              : '/applications/$applicationName/authorizations/$authorizationId'
                          }
                          params={{ applicationName, authorizationId: authorization.uuid }}
                          aria-label={t`Edit ${authorization.name}`}
                        >
                          <Pencil aria-hidden />
                        </Link>
                      </Button>
                    ) : null}
                    {roles.isAdministrator ? (
                      <Button
                        variant="ghost"
                        size="icon"
                        aria-label={t`Revoke ${authorization.name}`}
                        onClick={() => onRevoke(authorization)}
                      >
                        <Trash2 aria-hidden />
                      </Button>
                    ) : null}
                  </TableCell>
                </TableRow>
                {open.has(authorization.uuid) ? (
                  <TableRow>
                    <TableCell />
                    <TableCell colSpan={3}>
                      <p className="mb-1 text-sm">
                        <span className="font-medium">{t`Users:`}</span>{' '}
                        {authorization.isPublic ? t`everyone` : authorization.users.map((u) => u.login).join(', ')}
                      </p>
                      <PrivilegeSummary authorization={authorization} model={model} scopeLabels={scopeLabels} />
                    </TableCell>
                  </TableRow>
                ) : null}
              </Fragment>
            ))
          : listing.usersOfPage.map(({ user, authorizations: held }) => (
              <Fragment key={user.id}>
                <TableRow data-testid="user-row" data-login={user.login}>
                  <TableCell>
                    <Button
                      variant="ghost"
                      size="icon"
                      aria-expanded={open.has(user.id)}
                      aria-label={t`Show the rights of ${user.login}`}
                      onClick={() => toggle(user.id)}
                    >
                      {open.has(user.id) ? <ChevronDown aria-hidden /> : <ChevronRight aria-hidden />}
                    </Button>
                  </TableCell>
                  <TableCell>
                    <span className="font-medium">{user.login}</span>
                    <span className="block text-sm text-muted-foreground sm:hidden">{heldNames(held) || t`none`}</span>
                  </TableCell>
                  <TableCell className="hidden sm:table-cell">{heldNames(held) || t`none`}</TableCell>
                  <TableCell />
                </TableRow>
                {open.has(user.id) ? (
                  <TableRow>
                    <TableCell />
                    <TableCell colSpan={3}>
                      <div className="grid gap-2">
                        {held.map((authorization) => (
                          <div key={authorization.uuid}>
                            <p className="text-sm font-medium">{authorization.name}</p>
                            <PrivilegeSummary authorization={authorization} model={model} scopeLabels={scopeLabels} />
                          </div>
                        ))}
                      </div>
                    </TableCell>
                  </TableRow>
                ) : null}
              </Fragment>
            ))}
      </TableBody>
    </Table>
  );
}
