import type { OfflineStep } from './offlineSteps';
import { keepFresh, type CachedRead } from './queryCache';

/**
 * A step of "Make available offline" keeping `reads` anew, in order. A copy kept before never stands in for an
 * answer: an unreachable server or a refusal fails the step with the server's ApiError.
 */
export function readsStep(label: string, reads: ReadonlyArray<CachedRead<unknown>>): OfflineStep {
  return {
    label,
    keep: async () => {
      for (const read of reads) await keepFresh(read);
    },
  };
}
