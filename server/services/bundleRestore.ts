import { storeConfiguration } from './configurationRows.ts';
import { randomUUID } from 'node:crypto';
import { summarizeApplication } from '../../src/domain/applications/summary.ts';
import { configurationMessageKey, serializeModel } from '../../src/domain/configuration/index.ts';
import type { ServerContext } from '../context.ts';
import type { UserRow } from '../db/schema.ts';
import { Refusal, InvalidInput } from '../../src/domain/errors/refusal.ts';
import { databaseFailure } from '../http/databaseErrors.ts';
import type { EventStream } from '../http/eventStream.ts';
import { MAX_CONFIGURATION_BYTES } from './applications.ts';
import { checkAgainstModel } from './bundleModelCheck.ts';
import { checkConfiguration } from './configurationCheck.ts';
import { refusedZip } from './bundleRefused.ts';
import { listedFiles, type SpooledBundle } from './bundleSpool.ts';
import { finishRestore, inRestoreSteps } from './restoreInSteps.ts';
import type { RestoreRun } from './restoreRun.ts';
import { restoreAdditionalFiles } from './restoredAdditionalFiles.ts';
import { restoreDeposits } from './restoredDeposits.ts';
import { restoreRows } from './restoredRows.ts';
import { verifiedWhole } from './verifiedEntries.ts';

const problem = (code: string, params: Record<string, unknown>) => ({ code, message: code, params });

/**
 * Creates the application `name` from a bundle, all or nothing (restoreInSteps.ts): the configuration, the rows of every
 * reference and data type (through the CSV engine, in load order), the deposited versions with their
 * publication, and the additional files. Any failure leaves nothing. Reports progress on the stream.
 * The restoring user is the depositor, publisher and owner of everything restored: a bundle may name anyone, so
 * the people it names are kept as text only (`original_*`), never matched with accounts.
 */
export async function streamRestore(
  ctx: ServerContext,
  user: UserRow,
  name: string,
  bundle: SpooledBundle,
  events: EventStream,
) {
  const { archive, manifest } = bundle;
  const total = listedFiles(manifest).reduce((sum, file) => sum + file.size, 0) || 1;
  let read = 0;
  const counted = (count: number) => {
    read += count;
  };
  const progress = () => events.progress(0.05 + 0.9 * (read / total));
  try {
    events.info('bundle.restore.manifest', {
      applicationName: name,
      kind: manifest.kind,
      version: manifest.application.version,
    });
    const configuration = await verifiedWhole(archive, manifest.configuration, MAX_CONFIGURATION_BYTES, counted);
    const validated = await checkConfiguration(ctx, configuration, manifest.configuration.fileName);
    if (!validated.ok) {
      for (const error of validated.errors) {
        events.error('ValidationError', {
          ...problem(error.code, { ...error.params, path: error.path ?? '' }),
          message: configurationMessageKey(error.code),
          path: error.path,
          line: error.line,
          column: error.column,
        });
      }
      return;
    }
    const model = validated.value;
    checkAgainstModel(manifest, model);
    progress();
    const id = randomUUID();
    const counts = { rows: 0, deposits: 0, additionalFiles: 0 };

    await inRestoreSteps(ctx, id, async (writes) => {
      const { db } = writes;
      const comment = manifest.application.comment || model.comment;
      await db
        .insertInto('applications')
        .values({
          id,
          name,
          version: model.version,
          comment,
          summary: JSON.stringify(summarizeApplication(model)),
          model: serializeModel(model),
          creator_id: user.id,
          restoring_since: new Date(),
        })
        .execute();
      await storeConfiguration(db, {
        applicationId: id,
        model,
        fileName: manifest.configuration.fileName,
        content: configuration,
        comment,
        uploadedBy: user.id,
      });
      await db
        .insertInto('application_roles')
        .values({ application_id: id, user_id: user.id, role: 'applicationManager' })
        .execute();

      const run: RestoreRun = {
        ctx,
        writes,
        archive,
        manifest,
        model,
        applicationId: id,
        user,
        events,
        counted,
        progress,
      };
      const rows = await restoreRows(run);
      const restoredDeposits = await restoreDeposits(run);
      counts.rows = rows + restoredDeposits.rows;
      counts.deposits = restoredDeposits.deposits;
      counts.additionalFiles = await restoreAdditionalFiles(run);
      await finishRestore(db, id);
    });
    events.result({ id, name, version: model.version, ...counts });
    events.progress(1);
  } catch (error) {
    reportFailure(ctx, name, error, events);
  } finally {
    events.end();
  }
}

function reportFailure(ctx: ServerContext, name: string, thrown: unknown, events: EventStream) {
  // A full disk or a database away is nobody's fault in the backup: said as such (STORAGE_FULL, DATABASE_UNAVAILABLE).
  const error = databaseFailure(thrown) ?? refusedZip(thrown);
  if (error instanceof Refusal || error instanceof InvalidInput) {
    events.error(
      error.code === 'INVALID_BUNDLE' ? 'InvalidBundle' : 'RestoreRefused',
      problem(error.code, error.params),
    );
  } else if ((error as { code?: string }).code === '23505') {
    events.error('ApplicationExists', problem('APPLICATION_EXISTS_ON_CREATION', { name }));
  } else {
    ctx.log(`restore of ${name} failed: ${(error as Error).message}`);
    events.error('InternalError', problem('INTERNAL_ERROR', {}));
  }
}
