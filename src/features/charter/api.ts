import type { AuthenticatedUser } from '@/domain/accounts/user';
import type { ApplicationView } from '@/contract/applications';
import { ApiError } from '@/lib/api/apiError';
import { callApi } from '@/lib/api/client';
import { currentLanguage } from '@/lib/i18n/setup';
import { cachedApplication, cachedApplicationList } from '@/offline/applicationCache';
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
    return await callApi<ApplicationView>(`/applications/${encodeURIComponent(name)}`);
  } catch (error) {
    if (!(error instanceof ApiError && error.isNetworkError)) return undefined;
    const kept =
      (await cachedApplication(name))?.view ??
      (await cachedApplicationList())?.views.find((view) => view.name === name);
    return kept;
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
      body: { type: 'json', value: { login: user.login, email: user.email, charte: application.id } },
    },
  };
}
