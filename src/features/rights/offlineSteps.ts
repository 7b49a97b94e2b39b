import { managesRights, type ApplicationView } from '@/domain/applications/applicationView';
import { readsStep } from '@/offline/readsStep';
import type { OfflineStep } from '@/offline/offlineSteps';
import { firstRequestsPageRead } from './hooks/useRightsRequestsList';
import { applicationUsersRead, authorizationsRead, grantableRead, requestOptionsRead } from './queries';

/** What the person knows each step as, in their language (the caller translates). */
export interface RightsOfflineLabels {
  /** The data rights screen: its authorizations and what may be granted. */
  authorizations: string;
  /** The managers screen (application managers, user managers). */
  managers: string;
  /** The rights requests list, as it opens. */
  rightsRequests: string;
  /** The form asking for rights: its options. */
  requestForm: string;
}

/**
 * What "Make available offline" keeps of the rights screens of an application, under the keys those screens read:
 * the authorizations, what may be granted and the managers for those who manage rights; for everyone the rights
 * requests as their list opens and the options of the request form.
 */
export function rightsOfflineSteps(application: ApplicationView, labels: RightsOfflineLabels): OfflineStep[] {
  const name = application.name;
  const managing = managesRights(application)
    ? [
        readsStep(labels.authorizations, [authorizationsRead(name), grantableRead(name)]),
        readsStep(labels.managers, [applicationUsersRead(name)]),
      ]
    : [];
  return [
    ...managing,
    readsStep(labels.rightsRequests, [firstRequestsPageRead(name)]),
    readsStep(labels.requestForm, [requestOptionsRead(name)]),
  ];
}
