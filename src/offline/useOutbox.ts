import { useCallback, useEffect, useRef } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { offlineDb } from './db';
import { withoutDeviceData } from './deviceData';
import type { Submission, SubmitOptions } from './outbox';
import { outbox } from './outboxInstance';
import type { OutboxItem } from './outboxTypes';

/** The outbox as it changes: every item, and how many are not yet applied (none kept when the device's data cannot open). */
export function useOutboxItems(): OutboxItem[] | undefined {
  return useLiveQuery(() => offlineDb.outbox.orderBy('id').toArray().catch(withoutDeviceData([])), []);
}

/** Changes not yet applied: all of them, or those `owner` made. */
export function usePendingCount(owner?: string): number {
  return (
    useLiveQuery(() => {
      const waiting = offlineDb.outbox.where('status').anyOf('queued', 'sending', 'needs-attention');
      const count = owner === undefined ? waiting.count() : waiting.filter((item) => item.owner === owner).count();
      return count.catch(withoutDeviceData(0));
    }, [owner]) ?? 0
  );
}

/** The changes `owner` made that are not applied yet, oldest first. */
export function useWaitingChangesOf(owner: string): OutboxItem[] | undefined {
  return useLiveQuery(
    () =>
      offlineDb.outbox
        .where('status')
        .anyOf('queued', 'sending', 'needs-attention')
        .filter((item) => item.owner === owner)
        .sortBy('id')
        .catch(withoutDeviceData([])),
    [owner],
  );
}

/**
 * `outbox.submit` for a form: a refusal of the change's immediate attempt goes back to the form (and the change
 * leaves the outbox) only while the form is still on screen. Once it is gone (the person left during a long upload),
 * the refused change stays in *Pending changes* with its error, instead of being lost with the form.
 */
export function useOutboxSubmit() {
  const shown = useRef(false);
  useEffect(() => {
    shown.current = true;
    return () => {
      shown.current = false;
    };
  }, []);
  return useCallback(
    (submission: Submission, options: SubmitOptions = {}) =>
      outbox.submit(submission, { ...options, keepOnRefusal: options.keepOnRefusal ?? (() => !shown.current) }),
    [],
  );
}
