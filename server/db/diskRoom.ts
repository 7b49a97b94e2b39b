import { statfs } from 'node:fs/promises';

/** Bytes free on the disk that holds the database, for a process without privileges. */
export type FreeSpaceReader = () => Promise<number>;

/** The free space of the file system holding `folder`. */
export const freeSpaceOf =
  (folder: string): FreeSpaceReader =>
  async () => {
    const stats = await statfs(folder);
    return stats.bavail * stats.bsize;
  };

/** PostgreSQL's own code for a full disk (disk_full). */
const DISK_FULL = '53100';

/** A failure of the database for want of room: PostgreSQL's code, or the words of a write the disk refused. */
export function isDiskFull(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    code === DISK_FULL ||
    (typeof message === 'string' && /No space left on device|could not extend file/i.test(message))
  );
}

/**
 * A write refused before it ran because it would eat into the reserve. It carries the database's code for a full
 * disk, so that requests, jobs and streams answer it as one (507 STORAGE_FULL).
 */
export class NoRoom extends Error {
  readonly code = DISK_FULL;
  constructor(bytes: number, free: number, reserve: number) {
    super(`no room on the database's disk: ${bytes} bytes asked, ${free} free, ${reserve} kept in reserve`);
  }
}

export interface DiskRoom {
  /**
   * Refuses (NoRoom) a write of about `bytes` that would leave less than the reserve free. Passes when the
   * database's disk cannot be seen from here (a PostgreSQL server elsewhere, no DATABASE_DISK_PATH).
   */
  require(bytes: number): Promise<void>;
  /**
   * Runs `work`, which gives back the space of writes that found the disk full, after any pass under way; a pass
   * already waiting covers this one too.
   */
  giveBack(work: () => Promise<void>): void;
  /** Resolves once the space of every write refused so far has been given back (or the attempt failed). */
  givenBack(): Promise<void>;
}

/**
 * The room left on the database's disk. The reserve is what uploads, publications and restores never use: it stays
 * for everything else a running platform writes (sessions at sign-in, kept answers, job states, the database's own
 * log), so that a disk filled by a large write never stops people signing in and reading.
 */
export function diskRoom(
  readFree: FreeSpaceReader | undefined,
  reserveBytes: number,
  log: (line: string) => void,
): DiskRoom {
  let passes: Promise<void> = Promise.resolve();
  let waiting = false;
  return {
    async require(bytes) {
      if (!readFree) return;
      const free = await readFree();
      if (free - bytes < reserveBytes) throw new NoRoom(bytes, free, reserveBytes);
    },
    giveBack(work) {
      if (waiting) return;
      waiting = true;
      passes = passes.then(async () => {
        waiting = false;
        await work().catch((error: unknown) =>
          log(
            `giving back the space of a refused write failed: ${error instanceof Error ? error.message : String(error)}`,
          ),
        );
      });
    },
    givenBack: () => passes,
  };
}
