import { entriesInLoadOrder } from '../../src/domain/configuration/entriesInLoadOrder.ts';
import type { Kysely } from 'kysely';
import { EntryCsvWriter, templateShape, type ExampleWords } from '../../src/domain/bundle/entryCsv.ts';
import {
  BUNDLE_FORMAT,
  BUNDLE_FORMAT_VERSION,
  MANIFEST_PATH,
  MAX_BUNDLE_ENTRIES,
  manifestText,
  type BundleManifest,
} from '../../src/domain/bundle/manifest.ts';
import { depositKit } from '../../src/domain/bundle/depositTargets.ts';
import type { ApplicationModel } from '../../src/domain/configuration/model.ts';
import type { ServerContext } from '../context.ts';
import type { ApplicationRow, Schema } from '../db/schema.ts';
import { Refusal } from '../../src/domain/errors/refusal.ts';
import { backupAdditionalFiles, additionalFilesBytes } from './backupAdditionalFiles.ts';
import { backupDeposits } from './backupDeposits.ts';
import { versionsBytes } from './backupVersions.ts';
import { backupRows } from './backupRows.ts';
import { BackupChangedMeanwhile, backupStamp, unchangedSince } from './backupStamp.ts';
import { bundleReadme, type BundleLocale } from './bundleReadme.ts';
import { pad, segment } from './bundlePaths.ts';
import { DEPOSIT_SCRIPT_PATH, depositScript } from './depositScript.ts';
import { dynamicColumns } from './dynamicColumns.ts';
import { ZipOutput } from './zipOutput.ts';

const EXAMPLE_TEXT: Record<BundleLocale, string> = { fr: 'texte', en: 'text' };

export interface BundleOptions {
  withData: boolean;
  locale: BundleLocale;
}

export interface PreparedBundle {
  fileName: string;
  /** A rough size of the zip, for a progress bar (the real size is only known at the end). */
  estimatedBytes: number;
  content: AsyncGenerator<Uint8Array>;
}

/** A natural key of one stored row of each reference, for the templates' example lines. */
async function referenceExamples(
  db: Kysely<Schema>,
  applicationId: string,
  model: ApplicationModel,
): Promise<Map<string, string>> {
  const examples = new Map<string, string>();
  for (const entry of model.data.filter((d) => d.kind === 'reference')) {
    const row = await db
      .selectFrom('data_rows')
      .select('natural_key')
      .where('application_id', '=', applicationId)
      .where('data_name', '=', entry.name)
      .where('file_id', 'is', null)
      .orderBy('natural_key')
      .limit(1)
      .executeTakeFirst();
    if (row) examples.set(entry.name, row.natural_key);
  }
  return examples;
}

/**
 * The upload kit (configuration, README, one template per data entry) and, with data, the backup (every row as
 * CSV in load order, the deposited versions, the additional files), streamed as a zip with its manifest last.
 */
export async function prepareBundle(
  ctx: ServerContext,
  application: ApplicationRow,
  options: BundleOptions,
): Promise<PreparedBundle> {
  const db = ctx.db;
  const model = application.model;
  // Stamped before anything is read, the configuration included; refused at once, with an answer, when what was
  // read of the application is already out of date or a large write is half done.
  const before = options.withData ? await backupStamp(db, application.id) : undefined;
  if (before && (before.writing || before.configuration !== `${application.version}:${application.model_version}`))
    throw new Refusal('APPLICATION_CHANGED_MEANWHILE', { name: application.name });
  const configuration = await db
    .selectFrom('configurations')
    .select(['file_name', 'content'])
    .where('application_id', '=', application.id)
    .where('version', '=', application.version)
    .orderBy('uploaded_at', 'desc')
    .executeTakeFirst();
  if (!configuration)
    throw new Refusal('NO_SUCH_CONFIGURATION_VERSION', { name: application.name, version: application.version });
  const depositsBytes = options.withData ? await versionsBytes(db, application.id) : 0;
  const filesBytes = options.withData ? await additionalFilesBytes(db, application.id) : 0;
  const rowCount = options.withData
    ? Number(
        (
          await db
            .selectFrom('entry_counts')
            .select((eb) => eb.fn.sum<number>('line_count').as('rows'))
            .where('application_id', '=', application.id)
            .executeTakeFirst()
        )?.rows ?? 0,
      )
    : 0;
  // CSV compresses about four times; stored additional files (PDF, images) hardly at all.
  const estimatedBytes = configuration.content.byteLength + 4096 + rowCount * 12 + depositsBytes / 4 + filesBytes;
  const createdAt = new Date();
  const kind = options.withData ? 'backup' : 'kit';
  const stamp = createdAt.toISOString().slice(0, 10);
  return {
    fileName: `${application.name}-${kind}-${stamp}.zip`,
    estimatedBytes: Math.round(estimatedBytes),
    content: (async function* () {
      // A restore here reads no more files nor bytes than that: a backup holding more fails rather than be given whole.
      const zip = new ZipOutput({ maxEntries: MAX_BUNDLE_ENTRIES, maxBytes: ctx.config.bundleMaxBytes });
      const dynamics = await dynamicColumns(db, application.id, model);
      const examples = await referenceExamples(db, application.id, model);
      const words: ExampleWords = {
        text: EXAMPLE_TEXT[options.locale],
        reference: (name) => examples.get(name) ?? name,
      };
      const entries = entriesInLoadOrder(model);
      const configurationPath = `configuration/${segment(configuration.file_name)}`;
      const kit = depositKit(application.name, model);
      const templatePaths = new Map(
        entries.map((entry, index) => [entry.name, `templates/${pad(index)}_${entry.name}.csv`]),
      );

      const readme = yield* zip.add('README.md', [
        bundleReadme({
          model,
          applicationName: application.name,
          locale: options.locale,
          withData: options.withData,
          configurationPath,
          templates: templatePaths,
          depositScript: kit.targets.length > 0 ? DEPOSIT_SCRIPT_PATH : null,
          createdAt,
        }),
      ]);
      const configurationFile = yield* zip.add(configurationPath, [configuration.content]);
      const templates: BundleManifest['templates'] = [];
      for (const entry of entries) {
        const writer = new EntryCsvWriter(entry, templateShape(entry, words, dynamics.keys), {
          dynamicHeader: dynamics.header,
        });
        templates.push({
          dataName: entry.name,
          ...(yield* zip.add(templatePaths.get(entry.name)!, [writer.head(), writer.exampleLine(words)])),
        });
      }

      const script =
        kit.targets.length > 0 ? yield* zip.add(DEPOSIT_SCRIPT_PATH, [await depositScript(kit)]) : undefined;

      const data = options.withData ? yield* backupRows(zip, db, application.id, entries, dynamics) : [];
      const depositList = options.withData ? yield* backupDeposits(zip, db, application.id) : [];
      const additionalFiles = options.withData ? yield* backupAdditionalFiles(zip, db, application.id) : [];
      // Without its manifest the zip is refused by every restore: never a copy that looks whole and is not.
      if (before && !unchangedSince(before, await backupStamp(db, application.id)))
        throw new BackupChangedMeanwhile(application.name);

      const manifest: BundleManifest = {
        format: BUNDLE_FORMAT,
        formatVersion: BUNDLE_FORMAT_VERSION,
        kind,
        createdAt: createdAt.toISOString(),
        locale: options.locale,
        application: {
          name: application.name,
          version: application.version,
          comment: application.comment,
          creationDate: application.creation_date.toISOString(),
          updateDate: application.update_date.toISOString(),
        },
        configuration: { ...configurationFile, fileName: configuration.file_name },
        readme,
        templates,
        ...(script ? { depositScript: script } : {}),
        data,
        deposits: depositList,
        additionalFiles,
      };
      yield* zip.add(MANIFEST_PATH, [manifestText(manifest)]);
      yield* zip.end();
    })(),
  };
}
