import type { AuthenticatedUser } from '@/domain/accounts/user';
import type { ApplicationView } from '@/contract/applications';
import { callApi } from '@/lib/api/client';
import { currentLanguage } from '@/lib/i18n/setup';
import { APPLICATION_LIST_KEY, isUnreachable, keptCopy, keptRead } from '@/offline/queryCache';
import { applicationViewKey } from '@/offline/useApplicationModel';
import type { Submission } from '@/offline/outbox';

/** What the charter step needs to know about an application. */
export type CharterView = Pick<
  ApplicationView,
  'id' | 'name' | 'title' | 'defaultLanguage' | 'mustSignCharter' | 'charterUploadedAt' | 'hasCharter'
>;

/**
 * The application as the charter step sees it: from the server (the light view, without configuration), or, when
 * the server is out of reach, from the copy kept on the device. `undefined` when neither is available: the page
 * behind the step then says what is wrong.
 */
export async function charterViewOf(name: string): Promise<CharterView | undefined> {
  try {
    return (
      await keptRead(['application', name, 'charter'], () =>
        callApi<ApplicationView>(`/applications/${encodeURIComponent(name)}`),
      )
    ).value;
  } catch (error) {
    if (!isUnreachable(error)) return undefined;
    return (
      (await keptCopy<ApplicationView>(applicationViewKey(name)))?.value ??
      (await keptCopy<ApplicationView[]>(APPLICATION_LIST_KEY))?.value.find((view) => view.name === name)
    );
  }
}

/** Accepting the charter of an application, as an outbox change (`PUT /users {login, email, charte}`). */
export function charterAcceptance(
  user: Pick<AuthenticatedUser, 'login' | 'email'>,
  application: CharterView,
): Submission {
  return {
    kind: 'charter.accept',
    // The charter version accepted: the device lets the user in while this waits, for that version only.
    summary: {
      name: application.name,
      applicationId: application.id,
      charterUploadedAt: application.charterUploadedAt ?? '',
    },
    resource: `user:${user.login}`,
    request: {
      method: 'PUT',
      path: '/users',
      headers: { 'Accept-Language': currentLanguage() },
      body: {
        type: 'json',
        value: {
          login: user.login,
          email: user.email,
          charte: application.id,
          // Sent later from the outbox, it counts only for the charter read.
          ...(application.charterUploadedAt ? { charterUploadedAt: application.charterUploadedAt } : {}),
        },
      },
    },
  };
}
