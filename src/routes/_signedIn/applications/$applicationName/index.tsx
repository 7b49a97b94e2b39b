import { createFileRoute, redirect } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { ApplicationHomePage } from '@/features/applications/components/ApplicationHomePage';
import { dataOfflineSteps } from '@/features/data/offlineSteps';
import { depositsOfflineSteps } from '@/features/deposits/offlineSteps';
import { additionalFilesOfflineSteps } from '@/features/additionalFiles/offlineSteps';
import { rightsOfflineSteps } from '@/features/rights/offlineSteps';
import { localized } from '@/domain/applications/summary';
import type { DataEntry } from '@/domain/configuration/model';
import { loadApplication } from '@/features/applications/loadApplication';
import { i18n } from '@/lib/i18n/setup';
import { translateServerError } from '@/lib/i18n/serverMessages';
import { showToast } from '@/lib/toast';

export const Route = createFileRoute('/_signedIn/applications/$applicationName/')({
  loader: async ({ params }) => {
    try {
      return await loadApplication(params.applicationName);
    } catch (error) {
      // The application does not exist or cannot be read: back to the list, saying why.
      showToast('error', translateServerError(i18n, error));
      throw redirect({ to: '/applications' });
    }
  },
  component: function ApplicationHome() {
    const { view, offlineSince } = Route.useLoaderData();
    const { t, i18n } = useLingui();
    // Each area says what it needs offline; the home page keeps them all.
    const offlineSteps = () => {
      const model = view.configuration;
      const rights = rightsOfflineSteps(view, {
        authorizations: t`Authorizations`,
        managers: t`Managers and user managers`,
        rightsRequests: t`Rights requests`,
        requestForm: t`Rights request form`,
      });
      if (!model) return rights;
      const title = (entry: { name: string; i18n: DataEntry['i18n'] }) =>
        localized(entry.i18n.title, i18n.locale, model.defaultLanguage, entry.name);
      const fileTypes = model.additionalFiles.map((type) => ({ name: type.name, label: title(type) }));
      return [
        ...dataOfflineSteps(view.name, model, i18n.locale, title),
        ...depositsOfflineSteps(
          view.name,
          model.data,
          (entry) => t`Deposits of ${title(model.data.find((d) => d.name === entry.name)!)}`,
        ),
        ...additionalFilesOfflineSteps(view.name, fileTypes, { files: t`Additional files` }),
        ...rights,
      ];
    };
    return (
      <ApplicationHomePage
        key={view.id + view.version}
        application={view}
        offlineSince={offlineSince}
        offlineSteps={offlineSteps}
      />
    );
  },
});
