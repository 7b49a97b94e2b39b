import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Schema } from '../db/schema.ts';

/** An instance not heard of for this long is gone (killed, powered off, cut from the database). */
export const INSTANCE_SILENCE_SECONDS = 15;
const HEARTBEAT_EVERY_MS = 5_000;

export interface ServerInstance {
  id: string;
  /** Says this instance is gone (on a clean stop), so that what it was running is taken over at once. */
  stop(): Promise<void>;
}

/**
 * Records this process as a running instance and keeps saying it is alive, so that other instances (and this
 * one's successor) can tell when a request it was running died with it. The embedded database is opened by one
 * process at a time: when it starts, every instance recorded before is gone for certain.
 */
export async function startServerInstance(
  db: Kysely<Schema>,
  { onlyInstance, log }: { onlyInstance: boolean; log: (line: string) => void },
): Promise<ServerInstance> {
  const id = randomUUID();
  const aliveUntil = sql<Date>`now() + make_interval(secs => ${INSTANCE_SILENCE_SECONDS})`;
  if (onlyInstance) await db.deleteFrom('server_instances').execute();
  // Instances silent for long are forgotten: a missing instance and a silent one are both gone.
  else
    await db
      .deleteFrom('server_instances')
      .where('alive_until', '<', sql<Date>`now() - interval '1 day'`)
      .execute();
  await db.insertInto('server_instances').values({ id, alive_until: aliveUntil }).execute();
  const heartbeat = setInterval(() => {
    void db
      .updateTable('server_instances')
      .set({ alive_until: aliveUntil })
      .where('id', '=', id)
      .execute()
      // Silence lasts several beats: one missed is made good by the next.
      .catch((error: unknown) => log(`server instance heartbeat missed: ${(error as Error).message}`));
  }, HEARTBEAT_EVERY_MS);
  heartbeat.unref();
  return {
    id,
    async stop() {
      clearInterval(heartbeat);
      await db.deleteFrom('server_instances').where('id', '=', id).execute();
    },
  };
}
