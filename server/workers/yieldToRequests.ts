import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/** The niceness of checking threads: the request thread and the database's sessions go first on a busy machine. */
const WORKER_NICENESS = 10;

/**
 * Lowers the scheduling priority of the calling worker thread. On a machine whose cores are all busy, checking a
 * large file took its share of processor from the request thread and the database sessions answering pages, and
 * pages waited; at a lower priority the checking uses what they leave, which on an idle machine is everything.
 * Linux schedules threads one by one (`/proc/thread-self` names this one); elsewhere the priority stays as it is.
 */
export function yieldToRequests(): void {
  if (process.platform !== 'linux') return;
  let thread: number;
  try {
    thread = Number(readlinkSync('/proc/thread-self').split('/').pop());
  } catch {
    // No /proc (a sandbox without it): the thread keeps its priority rather than every check failing to start.
    return;
  }
  setPriority(thread, WORKER_NICENESS);
}
