import { Trans, useLingui } from '@lingui/react/macro';
import { Checkbox } from '@/components/ui/checkbox';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { TabsList, TabsTrigger } from '@/components/ui/tabs';
import type { AuthorizationsListing, UserFilter } from '../hooks/useAuthorizationsListing';

/** The tabs choosing how authorizations are listed, the public box, the filter of users and the search. */
export function AuthorizationsFilters({ listing }: { listing: AuthorizationsListing }) {
  const { t } = useLingui();
  return (
    <div className="flex flex-wrap items-end gap-3">
      <TabsList aria-label={t`Show`}>
        <TabsTrigger value="byName" className="min-h-11">
          <Trans>By authorization</Trans>
        </TabsTrigger>
        <TabsTrigger value="byUser" className="min-h-11" disabled={listing.showPublic}>
          <Trans>By user</Trans>
        </TabsTrigger>
      </TabsList>
      {listing.hasPublic ? (
        <label className="flex min-h-11 items-center gap-2">
          <Checkbox
            checked={listing.showPublic}
            disabled={listing.mode === 'byUser'}
            onCheckedChange={(checked) => listing.chooseShowPublic(checked === true)}
          />
          <Trans>Public authorizations</Trans>
        </label>
      ) : null}
      {listing.mode === 'byUser' ? (
        <div className="w-56">
          <FormField label={t`Users`}>
            <NativeSelect
              value={listing.userFilter}
              onChange={(event) => listing.setUserFilter(event.target.value as UserFilter)}
            >
              <option value="allUsers">{t`All users`}</option>
              <option value="userWithAuth">{t`Users with an authorization`}</option>
              <option value="userWithoutAuth">{t`Users without an authorization`}</option>
            </NativeSelect>
          </FormField>
        </div>
      ) : null}
      <div className="min-w-56 flex-1">
        <FormField label={t`Search`}>
          <Input type="search" value={listing.search} onChange={(event) => listing.chooseSearch(event.target.value)} />
        </FormField>
      </div>
    </div>
  );
}
