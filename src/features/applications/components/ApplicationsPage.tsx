import { useMemo, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { FolderOpen, Plus } from 'lucide-react';
import { OfflineNotice } from '@/components/layout/OfflineNotice';
import { PageHeader } from '@/components/layout/PageHeader';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { ListPager } from '@/components/ListPager';
import { Progress } from '@/components/ui/progress';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useCurrentUser } from '@/offline/currentUser';
import { translateServerError } from '@/lib/i18n/serverMessages';
import { useApplicationList } from '../hooks/useApplicationList';
import { pageCount, pageOf } from '@/lib/paging';
import { CARDS_PER_PAGE, filterApplications, localName, sortApplications, type SortMode } from '../listing';
import { ApplicationCard } from './ApplicationCard';
import { RestoreBundleDialog } from './RestoreBundleDialog';

type Tab = 'own' | 'other';

export function ApplicationsPage() {
  const { t, i18n } = useLingui();
  const user = useCurrentUser();
  const { applications, progress, loading, error, offlineSince } = useApplicationList();
  const [chosenTab, setChosenTab] = useState<Tab | undefined>();
  const [sort, setSort] = useState<SortMode>('Az');
  const [filter, setFilter] = useState('');
  const [page, setPage] = useState(1);

  const own = useMemo(() => applications.filter((a) => a.isMember), [applications]);
  const other = useMemo(() => applications.filter((a) => !a.isMember), [applications]);
  // The own list comes first when it has something; a tab with nothing in it cannot be chosen.
  const tab: Tab =
    chosenTab === 'other' && other.length > 0
      ? 'other'
      : chosenTab === 'own' && own.length > 0
        ? 'own'
        : own.length > 0
          ? 'own'
          : 'other';
  const shown = useMemo(
    () => sortApplications(filterApplications(tab === 'own' ? own : other, filter, i18n.locale), sort, i18n.locale),
    [tab, own, other, filter, sort, i18n.locale],
  );
  const count = pageCount(shown.length, CARDS_PER_PAGE);
  const currentPage = Math.min(page, count);
  const canCreate = Boolean(user && (user.authorizedForApplicationCreation || user.terrainAdmin));

  const sortLabels: Record<SortMode, string> = {
    Az: t`Name A to Z`,
    Za: t`Name Z to A`,
    '0_9': t`Most recent first`,
    '9_0': t`Oldest first`,
  };

  return (
    <div>
      <PageHeader
        title={<Trans>Applications</Trans>}
        actions={
          canCreate ? (
            <div className="flex flex-wrap gap-2">
              <RestoreBundleDialog existingNames={applications.map((a) => a.name)} />
              <Button asChild>
                <Link to="/applicationCreation">
                  <Plus aria-hidden />
                  <Trans>Create an application</Trans>
                </Link>
              </Button>
            </div>
          ) : null
        }
      />
      {offlineSince ? <OfflineNotice fetchedAt={offlineSince} /> : null}
      {loading ? <Progress value={progress} label={t`Loading the applications`} className="mb-4" /> : null}
      {error ? (
        <Alert variant="destructive" className="mb-4">
          {translateServerError(i18n, error)}
        </Alert>
      ) : null}

      {/* The tabs wrap the whole listing: each tab controls the panel that holds the cards of its list. */}
      <Tabs
        value={tab}
        onValueChange={(value) => {
          setChosenTab(value as Tab);
          setPage(1);
        }}
      >
        {/* Top-aligned, so that the hint under the filter does not lift it above the sort field. */}
        <div className="mb-4 flex flex-wrap items-start gap-3">
          <TabsList aria-label={t`Which applications`} className="sm:mt-[1.125rem]">
            <TabsTrigger value="own" disabled={own.length === 0}>
              <Trans>My applications ({own.length})</Trans>
            </TabsTrigger>
            <TabsTrigger value="other" disabled={other.length === 0}>
              <Trans>Other applications ({other.length})</Trans>
            </TabsTrigger>
          </TabsList>
          <div className="min-w-56 flex-1">
            <FormField label={t`Filter by name`} hint={t`Applies from 3 characters.`}>
              <Input
                type="search"
                list="application-names"
                value={filter}
                onChange={(event) => {
                  setFilter(event.target.value);
                  setPage(1);
                }}
              />
            </FormField>
            <datalist id="application-names">
              {(tab === 'own' ? own : other).map((a) => (
                <option key={a.id} value={localName(a, i18n.locale)} />
              ))}
            </datalist>
          </div>
          <div className="w-56">
            <FormField label={t`Sort`}>
              <NativeSelect value={sort} onChange={(event) => setSort(event.target.value as SortMode)}>
                {(Object.keys(sortLabels) as SortMode[]).map((mode) => (
                  <option key={mode} value={mode}>
                    {sortLabels[mode]}
                  </option>
                ))}
              </NativeSelect>
            </FormField>
          </div>
        </div>

        {(['own', 'other'] as const).map((value) => (
          <TabsContent key={value} value={value} className="mt-0">
            {!loading && applications.length === 0 ? (
              <Card>
                <CardContent className="flex flex-col items-center gap-3 py-12 text-center">
                  <FolderOpen className="size-12 text-muted-foreground" aria-hidden />
                  <p className="text-lg font-medium">
                    <Trans>No application yet.</Trans>
                  </p>
                </CardContent>
              </Card>
            ) : (
              <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label={t`Applications`}>
                {pageOf(shown, currentPage, CARDS_PER_PAGE).map((application) => (
                  <li key={application.id} className="grid min-w-0">
                    <ApplicationCard application={application} />
                  </li>
                ))}
              </ul>
            )}
            {!loading && applications.length > 0 && shown.length === 0 ? (
              <p className="py-8 text-center text-muted-foreground">
                <Trans>No application matches this name.</Trans>
              </p>
            ) : null}

            <div className="mt-6 empty:hidden">
              <ListPager total={shown.length} size={CARDS_PER_PAGE} page={currentPage} onChange={setPage} />
            </div>
          </TabsContent>
        ))}
      </Tabs>
    </div>
  );
}
