import { asBulkWork } from '../db/sessionOrder.ts';

/**
 * How many CSV uploads one process reads, checks and writes at a time; the others wait their turn, unread (the
 * network holds their bytes back). Checking a file is work on the server's one thread and a write is work for
 * the database: without a bound, people sending files back to back take the processor from people reading pages,
 * who wait for each answer (`npm run load`: the browsing p95 went from 470 ms with two lanes to 190 ms with one).
 * An upload whose bytes stop coming (a poor network) does not hold its lane: once it has waited LANE_STALL_MS for
 * them, the next upload runs beside it. Uploads that are merely slow to check keep theirs (a bound that let
 * waiting uploads in after a time, however busy the server, had them all run at once under load: with ten
 * uploaders on the embedded database the browsing p95 went to 4 s).
 */
export const UPLOAD_LANES = 1;
export const LANE_STALL_MS = 1_000;
/** How often waiting uploads look for a lane left by a stalled one. */
const STALL_CHECK_MS = 250;

/** What a lane needs to know of an upload: whether it waits for the client's bytes, since when. */
export interface LaneUpload {
  waitingForBytesSince(): number | undefined;
}

const holders = new Set<LaneUpload>();
const waiting: Array<{ upload: LaneUpload; enter: () => void }> = [];
let stallCheck: NodeJS.Timeout | undefined;

const stalled = (upload: LaneUpload) => {
  const since = upload.waitingForBytesSince();
  return since !== undefined && performance.now() - since >= LANE_STALL_MS;
};

const lanesInUse = () => [...holders].filter((holder) => !stalled(holder)).length;

/** Lets waiting uploads in, in the order they came, while lanes are free. */
function admit() {
  while (waiting.length > 0 && lanesInUse() < UPLOAD_LANES) {
    const next = waiting.shift()!;
    holders.add(next.upload);
    next.enter();
  }
  if (waiting.length === 0 && stallCheck) {
    clearInterval(stallCheck);
    stallCheck = undefined;
  }
}

async function takeLane(upload: LaneUpload): Promise<void> {
  if (waiting.length === 0 && lanesInUse() < UPLOAD_LANES) {
    holders.add(upload);
    return;
  }
  await new Promise<void>((enter) => {
    waiting.push({ upload, enter });
    stallCheck ??= setInterval(admit, STALL_CHECK_MS).unref();
  });
}

/** How many uploads hold a lane while they wait for their client's next bytes. */
export const uploadsWaitingForBytes = (): number =>
  [...holders].filter((holder) => holder.waitingForBytesSince() !== undefined).length;

/** Runs an upload once a lane is free (in the order they came) or its holder stalled. */
export async function inUploadLane<T>(upload: LaneUpload, work: () => Promise<T>): Promise<T> {
  await takeLane(upload);
  try {
    return await asBulkWork(work);
  } finally {
    holders.delete(upload);
    admit();
  }
}
