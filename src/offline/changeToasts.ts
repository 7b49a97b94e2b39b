import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { ApiError } from '@/lib/api/apiError';
import { translateServerError } from '@/lib/i18n/serverMessages';
import { showToast } from '@/lib/toast';
import { describeProblem } from '@/lib/i18n/problems';
import { describeChange } from './describeChange';
import type { JobOutcome, OutboxError, OutboxItem, OutboxOutcome } from './outboxTypes';
import type { PublicationJob } from './publicationJobs';

const savedOnDevice = msg`Saved on this device.`;
const sentLater = msg`It will be sent to the server as soon as the network is back.`;

/** The server's reason for refusing a change, in the interface's language. */
export function refusalText(i18n: I18n, error: OutboxError): string {
  return translateServerError(i18n, new ApiError(error.status, error.code, error.params));
}

export function toastRefusal(i18n: I18n, error: OutboxError, details?: string): void {
  showToast('error', refusalText(i18n, error), details);
}

/** The change waits on this device; `title` names it when the page has a better word than "saved". */
export function toastSavedOnDevice(i18n: I18n, title?: string): void {
  showToast('info', title ?? i18n._(savedOnDevice), i18n._(sentLater));
}

/**
 * Tells what became of a change: `sent` once the server applied it (no toast without it), kept on this device to
 * be sent later, or refused with the server's reason.
 */
export function toastOutcome(i18n: I18n, outcome: OutboxOutcome, sent?: string): void {
  if (outcome.status === 'needs-attention') toastRefusal(i18n, outcome.error);
  else if (outcome.status === 'queued') toastSavedOnDevice(i18n);
  else if (sent) showToast('success', sent);
}

const published = msg`The version has been published.`;
const unpublished = msg`The version is no longer published.`;
const notPublished = msg`The version could not be published.`;
const notUnpublished = msg`The version could not be unpublished.`;

/** How the publication a change asked for ended on the server (nothing is told of a job a later one replaced). */
export function toastJobOutcome(i18n: I18n, item: OutboxItem, job: PublicationJob, outcome: JobOutcome): void {
  if (outcome.status === 'done')
    showToast('success', i18n._(job.publish ? published : unpublished), describeChange(i18n, item));
  else if (outcome.status === 'failed')
    showToast(
      'error',
      i18n._(job.publish ? notPublished : notUnpublished),
      `${describeProblem(i18n, outcome.error)} (${describeChange(i18n, item)})`,
    );
}
