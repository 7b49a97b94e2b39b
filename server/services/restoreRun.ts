import type { ApplicationModel } from '../../src/domain/configuration/index.ts';
import type { BundleManifest } from '../../src/domain/bundle/manifest.ts';
import type { ServerContext } from '../context.ts';
import type { UserRow } from '../db/schema.ts';
import type { EventStream } from '../http/eventStream.ts';
import type { RestoreWrites } from './restoreInSteps.ts';
import type { ZipArchive } from './zipArchive.ts';

/** What each step of a restore works with: the bundle read, where it writes, and whom it tells. */
export interface RestoreRun {
  ctx: ServerContext;
  writes: RestoreWrites;
  archive: ZipArchive;
  manifest: BundleManifest;
  model: ApplicationModel;
  /** The application being restored. */
  applicationId: string;
  /** The restorer, who owns everything restored. */
  user: UserRow;
  events: EventStream;
  /** Counts the bytes read from the bundle. */
  counted: (count: number) => void;
  /** Reports the progress the bytes read make. */
  progress: () => void;
}
