import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { Save } from 'lucide-react';
import { OfflineNotice } from '@/components/layout/OfflineNotice';
import { PageHeader } from '@/components/layout/PageHeader';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { TagInput } from '@/components/ui/tag-input';
import { translateServerError } from '@/lib/i18n/serverMessages';
import { pageOf } from '@/lib/paging';
import { ListPager } from '@/components/ListPager';
import { cn } from '@/lib/cn';
import { describeProblem } from '@/lib/i18n/problems';
import { showToast } from '@/lib/toast';
import { toastRefusal, toastSavedOnDevice } from '@/offline/changeToasts';
import { useOutboxSubmit } from '@/offline/useOutbox';
import { useKeptQuery } from '@/offline/useKeptQuery';
import { roleChange, usersForAdminRead } from '../api';
import {
  addPattern,
  changesOf,
  invalidPatterns,
  removePattern,
  roleRequests,
  shownAdmin,
  shownPatterns,
  toggleAdmin,
  type PendingChanges,
  type RoleRequest,
} from '../changes';

const USERS_PER_PAGE = 15;

/** The platform administrator's table of who may create which applications. */
export function CreatorRightsPage() {
  const submitChange = useOutboxSubmit();
  const { t, i18n } = useLingui();
  const client = useQueryClient();
  const { data, error, offlineSince } = useKeptQuery(usersForAdminRead.queryKey, usersForAdminRead.read);
  const users = data ?? null;
  const [changes, setChanges] = useState<PendingChanges>({});
  const [page, setPage] = useState(1);
  const [saving, setSaving] = useState(false);
  const invalid = invalidPatterns(changes);

  async function save() {
    if (Object.keys(invalid).length > 0) {
      showToast('error', t`Nothing was saved: correct or remove the patterns marked as invalid.`);
      return;
    }
    setSaving(true);
    let queued = false;
    const refused: RoleRequest[] = [];
    for (const request of roleRequests(changes)) {
      const outcome = await submitChange(roleChange(request));
      if (outcome.status === 'needs-attention') {
        toastRefusal(i18n, outcome.error);
        refused.push(request);
      }
      queued ||= outcome.status === 'queued';
    }
    // What the server refused stays on the page, to be corrected and saved again.
    setChanges(changesOf(refused));
    // After a refusal the refusal's toast is the answer: claiming "saved" beside it would say the opposite.
    if (refused.length === 0) {
      if (queued) toastSavedOnDevice(i18n);
      else showToast('success', t`The rights have been saved.`);
    }
    // The rights are read again from the server.
    await client.invalidateQueries({ queryKey: usersForAdminRead.queryKey });
    setSaving(false);
  }

  const shown = pageOf(users ?? [], page, USERS_PER_PAGE);
  const pending = Object.keys(changes).length;

  return (
    <div className="grid gap-4">
      <PageHeader
        title={<Trans>Application creators</Trans>}
        description={
          <Trans>
            Who may create applications, and with which names (exact names or regular expressions such as ola_.*).
          </Trans>
        }
        actions={
          <Button onClick={() => void save()} disabled={pending === 0 || saving}>
            <Save aria-hidden />
            <Trans>Save ({pending})</Trans>
          </Button>
        }
      />
      {offlineSince ? <OfflineNotice fetchedAt={offlineSince} /> : null}
      {error ? <Alert variant="destructive">{translateServerError(i18n, error)}</Alert> : null}
      {/* On a phone each user is a small card (login, administrator box, patterns) instead of a too-wide row. */}
      <Table className="max-md:block">
        <TableHeader className="bg-muted max-md:sr-only">
          <TableRow>
            <TableHead>
              <Trans>Login</Trans>
            </TableHead>
            <TableHead className="hidden md:table-cell">
              <Trans>E-mail</Trans>
            </TableHead>
            <TableHead className="text-center">
              <Trans>Platform administrator</Trans>
            </TableHead>
            <TableHead className="min-w-64">
              <Trans>Application names they may create</Trans>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody className="divide-y divide-border max-md:block">
          {shown.map((user) => (
            <TableRow
              key={user.id}
              data-testid="creator-row"
              data-login={user.login}
              className={cn('max-md:grid max-md:gap-1 max-md:py-2', changes[user.login] && 'bg-accent/10')}
            >
              <TableCell className="font-medium max-md:break-all">{user.login}</TableCell>
              <TableCell className="hidden md:table-cell">{user.email}</TableCell>
              <TableCell className="text-center max-md:flex max-md:items-center max-md:gap-3">
                <Checkbox
                  checked={shownAdmin(changes, user)}
                  onCheckedChange={(checked) => setChanges((c) => toggleAdmin(c, user, checked === true))}
                  aria-label={t`${user.login} is platform administrator`}
                />
                <span className="text-sm text-muted-foreground md:hidden" aria-hidden>
                  <Trans>Platform administrator</Trans>
                </span>
              </TableCell>
              <TableCell>
                <TagInput
                  values={shownPatterns(changes, user)}
                  onAdd={(pattern) => setChanges((c) => addPattern(c, user, pattern))}
                  onRemove={(pattern) => setChanges((c) => removePattern(c, user, pattern))}
                  label={t`Add a name pattern for ${user.login}`}
                  removeLabel={(pattern) => t`Remove ${pattern}`}
                  placeholder={t`name or pattern, then Enter`}
                  changed={(pattern) => changes[user.login]?.added.includes(pattern) ?? false}
                  invalid={(pattern) => invalid[user.login]?.includes(pattern) ?? false}
                  describedBy={invalid[user.login] ? `invalid-patterns-${user.id}` : undefined}
                />
                {invalid[user.login] ? (
                  <p
                    id={`invalid-patterns-${user.id}`}
                    className="mt-1 text-sm text-destructive"
                    data-testid="invalid-patterns"
                  >
                    {invalid[user.login]
                      .map((pattern) => describeProblem(i18n, { code: 'BAD_APPLICATION_PATTERN', params: { pattern } }))
                      .join(' ')}
                  </p>
                ) : null}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <ListPager total={users?.length ?? 0} size={USERS_PER_PAGE} page={page} onChange={setPage} />
    </div>
  );
}
