import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { ServerContext } from '../context.ts';
import { Refusal } from '../../src/domain/errors/refusal.ts';

/** A claim lasts this long unless renewed; a server that died mid-download frees the user after it. */
const LEASE_SECONDS = 120;
const RENEW_EVERY_MS = 30_000;

export interface BundleRun {
  /** Ends the claim (the download finished, failed or was dropped); safe to call twice. */
  release(): Promise<void>;
}

/**
 * Claims the right to stream a bundle for a user, or refuses with 429 BUNDLE_ALREADY_RUNNING while another one of
 * theirs runs on any instance (the claim is a row, renewed while the download goes on).
 */
export async function claimBundleRun(ctx: ServerContext, userId: string, applicationId: string): Promise<BundleRun> {
  const runId = randomUUID();
  const claimed = await sql<{ run_id: string }>`
    insert into bundle_runs (user_id, run_id, application_id, locked_until)
    values (${userId}, ${runId}, ${applicationId}, now() + make_interval(secs => ${LEASE_SECONDS}))
    on conflict (user_id) do update
      set run_id = excluded.run_id, application_id = excluded.application_id, started_at = now(), locked_until = excluded.locked_until
      where bundle_runs.locked_until < now()
    returning run_id`.execute(ctx.db);
  if (claimed.rows.length === 0) throw new Refusal('BUNDLE_ALREADY_RUNNING', {}, 5);
  const renewal = setInterval(() => {
    void ctx.db
      .updateTable('bundle_runs')
      .set({ locked_until: sql<Date>`now() + make_interval(secs => ${LEASE_SECONDS})` })
      .where('user_id', '=', userId)
      .where('run_id', '=', runId)
      .execute()
      // The lease lasts several renewals: one missed is made good by the next.
      .catch(() => undefined);
  }, RENEW_EVERY_MS);
  renewal.unref();
  let released: Promise<void> | undefined;
  return {
    release() {
      clearInterval(renewal);
      released ??= ctx.db
        .deleteFrom('bundle_runs')
        .where('user_id', '=', userId)
        .where('run_id', '=', runId)
        .execute()
        .then(
          () => undefined,
          (error: Error) => ctx.log(`bundle run of ${userId} not released: ${error.message}`),
        );
      return released;
    },
  };
}
