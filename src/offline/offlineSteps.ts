import { isUnreachable } from './queryCache';

/** One thing "Make available offline" keeps on the device: a table, a list's first page, a form's options. */
export interface OfflineStep {
  /** What is kept, as the person knows it, to name it when it is skipped. */
  label: string;
  keep(): Promise<unknown>;
}

export interface SkippedStep {
  label: string;
  /** Why the server refused it (no right to read it, gone). */
  error: unknown;
}

/**
 * Keeps every step the server allows, in order, reporting the share done. A refusal skips that step and is named in
 * the answer; an unreachable server stops everything (what was kept so far stays kept).
 */
export async function keepForOffline(
  steps: readonly OfflineStep[],
  onProgress: (done: number) => void,
): Promise<SkippedStep[]> {
  const skipped: SkippedStep[] = [];
  for (const [index, step] of steps.entries()) {
    try {
      await step.keep();
    } catch (error) {
      if (isUnreachable(error)) throw error;
      skipped.push({ label: step.label, error });
    }
    onProgress((index + 1) / steps.length);
  }
  return skipped;
}
