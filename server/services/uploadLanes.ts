/**
 * How many CSV uploads one process reads, checks and writes at a time; the others wait their turn, unread (the
 * network holds their bytes back). Checking a file is work on the server's one thread and a write is work for
 * the database: without a bound, people sending files back to back take the processor from people reading pages,
 * who wait for each answer (`npm run load`: the browsing p95 went from 470 ms with two lanes to 190 ms with one).
 * The bound is soft: an upload arriving slowly over a poor network holds its lane, so none waits more than
 * LANE_WAIT_MS; after that it runs beside the others.
 */
export const UPLOAD_LANES = 1;
export const LANE_WAIT_MS = 2_000;

let running = 0;
const waiting: Array<() => void> = [];

/** Answers whether a lane was taken (false when the wait ran out). */
function takeLane(): Promise<boolean> {
  if (running < UPLOAD_LANES) {
    running += 1;
    return Promise.resolve(true);
  }
  return new Promise((resolve) => {
    const handOver = () => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(() => {
      waiting.splice(waiting.indexOf(handOver), 1);
      resolve(false);
    }, LANE_WAIT_MS);
    timer.unref();
    waiting.push(handOver);
  });
}

function releaseLane(): void {
  const next = waiting.shift();
  if (next) next();
  else running -= 1;
}

/** Runs an upload once a lane is free (in the order they came), or after LANE_WAIT_MS. */
export async function inUploadLane<T>(upload: () => Promise<T>): Promise<T> {
  const lane = await takeLane();
  try {
    return await upload();
  } finally {
    if (lane) releaseLane();
  }
}
