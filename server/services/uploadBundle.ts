import { sql, type Kysely } from 'kysely';
import {
  EntryCsvWriter,
  hasSingleShape,
  shapeKey,
  shapeOf,
  templateShape,
  type ExampleWords,
  type RowShape,
} from '../../src/domain/bundle/entryCsv.ts';
import {
  BUNDLE_FORMAT,
  BUNDLE_FORMAT_VERSION,
  MANIFEST_PATH,
  type BundleAdditionalFile,
  type BundleData,
  type BundleDeposit,
  type BundleManifest,
} from '../../src/domain/bundle/manifest.ts';
import { depositKit } from '../../src/domain/bundle/depositTargets.ts';
import type { ApplicationModel, DataEntry, DynamicComponent } from '../../src/domain/configuration/model.ts';
import { dynamicHeaderText } from '../../src/domain/csv/header.ts';
import type { RowTexts, WrittenRow } from '../../src/domain/rows/rowTexts.ts';
import type { ServerContext } from '../context.ts';
import type { ApplicationRow, Schema } from '../db/schema.ts';
import { Refusal } from '../../src/domain/errors/refusal.ts';
import { bundleReadme, type BundleLocale } from './bundleReadme.ts';
import { DEPOSIT_SCRIPT_PATH, depositScript } from './depositScript.ts';
import { rowTextsFor } from './dataRows.ts';
import { backupVersions, versionsBytes } from './backupVersions.ts';
import { storedFiles } from './fileParts.ts';
import { ZipOutput } from './zipOutput.ts';

/** Rows are read this many at a time, by natural key. */
const ROW_PAGE = 5000;

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

const pad = (index: number) => String(index + 1).padStart(2, '0');
/** A name safe as one segment of a path inside the zip. */
const segment = (name: string) => name.replace(/[^\p{L}\p{N}_.\- ]/gu, '_').replace(/^[. ]+/, '_') || 'file';

const isVersioned = (entry: DataEntry) => entry.kind === 'dataType' && entry.submission.strategy === 'OA_VERSIONING';

/**
 * The hierarchical keys and header texts of every row of the references that dynamic components read, by key: a
 * header is asked for each column of each shape, and a reference of thousands of rows gives as many columns.
 */
export async function dynamicColumns(db: Kysely<Schema>, applicationId: string, model: ApplicationModel) {
  const byReference = new Map<string, Map<string, Record<string, unknown>>>();
  for (const component of model.data.flatMap((entry) => entry.components)) {
    if (component.kind !== 'dynamic' || byReference.has(component.reference)) continue;
    const rows = await db
      .selectFrom('data_rows')
      .select(['hierarchical_key', 'values'])
      .where('application_id', '=', applicationId)
      .where('data_name', '=', component.reference)
      .where('file_id', 'is', null)
      .orderBy('natural_key')
      .execute();
    byReference.set(component.reference, new Map(rows.map((row) => [row.hierarchical_key, row.values])));
  }
  return {
    keys: (component: DynamicComponent) => [...(byReference.get(component.reference)?.keys() ?? [])],
    header: (component: DynamicComponent, key: string) =>
      component.headerPrefix +
      dynamicHeaderText(byReference.get(component.reference)?.get(key)?.[component.referenceComponent]),
  };
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
 * The rows a backup keeps for an entry: the stored rows, or the published ones of a versioned data type; of one
 * shape only when `shape` lists its rows.
 */
export async function* rowPages(
  db: Kysely<Schema>,
  applicationId: string,
  entry: DataEntry,
  shape?: EntryShape,
): AsyncGenerator<WrittenRow[]> {
  if (shape?.rowIds) {
    yield* rowsById(db, entry, shape);
    return;
  }
  let after: { naturalKey: string; id: string } | undefined;
  for (;;) {
    let page = keptRows(db, applicationId, entry)
      .select(['id', 'natural_key', 'values'])
      .orderBy('natural_key')
      .orderBy('id')
      .limit(ROW_PAGE);
    if (after) page = page.where(sql<boolean>`(natural_key, id) > (${after.naturalKey}, ${after.id}::uuid)`);
    const rows = await page.execute();
    if (rows.length > 0) yield rows.map((row) => ({ naturalKey: row.natural_key, values: row.values }));
    if (rows.length < ROW_PAGE) return;
    const last = rows[rows.length - 1];
    after = { naturalKey: last.natural_key, id: last.id };
  }
}

const keptRows = (db: Kysely<Schema>, applicationId: string, entry: DataEntry) =>
  db
    .selectFrom('data_rows')
    .where('application_id', '=', applicationId)
    .where('data_name', '=', entry.name)
    .where('file_id', isVersioned(entry) ? 'is not' : 'is', null);

/**
 * The rows of a shape by the ids listed, in that order (sorted as rowPages sorts), a page at a time. A row whose
 * shape changed since it was listed (a write meanwhile) is left out, never written under another shape's header.
 */
async function* rowsById(
  db: Kysely<Schema>,
  entry: DataEntry,
  { rowIds, digests }: EntryShape,
): AsyncGenerator<WrittenRow[]> {
  const ids = rowIds ?? [];
  for (let at = 0; at < ids.length; at += ROW_PAGE) {
    const rows = await db
      .selectFrom('data_rows')
      .select(['natural_key', 'values', sql<string>`md5(${storedShape(entry)})`.as('digest')])
      .where(sql<boolean>`id = any(${ids.slice(at, at + ROW_PAGE)}::uuid[])`)
      .orderBy('natural_key')
      .orderBy('id')
      .execute();
    yield rows
      .filter((row) => digests?.has(row.digest))
      .map((row) => ({ naturalKey: row.natural_key, values: row.values }));
  }
}

/** The parts of a row's values that make its shape (see entryCsv), as the database builds them from `values`. */
function storedShape(entry: DataEntry) {
  const parts = entry.components.flatMap((component) => {
    const value = sql`values -> ${component.key}::text`;
    if (component.kind === 'constant') return [sql`${component.key}::text, ${value}`];
    if (component.kind === 'dynamic') {
      return [
        sql`${component.key}::text, coalesce((select jsonb_object_agg(k, '') from jsonb_object_keys(case when jsonb_typeof(${value}) = 'object' then ${value} else '{}'::jsonb end) k), '{}'::jsonb)`,
      ];
    }
    if (component.kind === 'pattern') {
      return [
        sql`${component.key}::text, coalesce((select jsonb_agg(jsonb_build_object('header', g.value -> 'header') order by g.position)
          from jsonb_array_elements(case when jsonb_typeof(${value}) = 'array' then ${value} else '[]'::jsonb end) with ordinality g(value, position)), '[]'::jsonb)`,
      ];
    }
    return [];
  });
  return sql`jsonb_build_object(${sql.join(parts)})::text`;
}

/** One shape of an entry's rows; when the entry has several, its rows' ids in the order they are written. */
export interface EntryShape {
  shape: RowShape;
  rowIds?: string[];
  /** The digests of the stored forms of that shape, by which its rows are found again. */
  digests?: Set<string>;
}

/**
 * The shapes of an entry's rows: computed by the database from the parts that make a shape, so that they are
 * known before any row is written. Each file of an entry of several shapes read every row of the entry and
 * worked out its shape again, as many times as there are shapes (one per loaded file of its own constants, say):
 * the rows of each shape are now listed by one read of the entry, that shape's file reads them only.
 */
export async function shapesOf(
  db: Kysely<Schema>,
  applicationId: string,
  entry: DataEntry,
  texts: RowTexts,
): Promise<EntryShape[]> {
  if (hasSingleShape(entry)) return [{ shape: shapeOf(entry, {}, texts) }];
  // By text, not as values: two stored forms equal as values (1.0 and 1) are each found again by their digest.
  const stored = await sql<{ shape: string; digest: string }>`
    select shape, md5(shape) as digest from (
      select distinct ${storedShape(entry)} as shape from data_rows
      where application_id = ${applicationId} and data_name = ${entry.name} and file_id is ${isVersioned(entry) ? sql`not null` : sql`null`}) s`.execute(
    db,
  );
  const byKey = new Map<string, EntryShape>();
  const byDigest = new Map<string, EntryShape>();
  for (const { shape: text, digest } of stored.rows) {
    const shape = shapeOf(entry, JSON.parse(text) as Record<string, unknown>, texts);
    const key = shapeKey(shape);
    if (!byKey.has(key)) byKey.set(key, { shape, rowIds: [], digests: new Set() });
    byKey.get(key)!.digests!.add(digest);
    byDigest.set(digest, byKey.get(key)!);
  }
  const shapes = [...byKey.keys()].sort().map((key) => byKey.get(key)!);
  if (shapes.length < 2) return shapes.map(({ shape }) => ({ shape }));
  await listRowsByShape(db, applicationId, entry, byDigest);
  return shapes;
}

/** Adds each row's id to its shape's list, in the order rowPages reads them, a page at a time. */
async function listRowsByShape(
  db: Kysely<Schema>,
  applicationId: string,
  entry: DataEntry,
  byDigest: ReadonlyMap<string, EntryShape>,
): Promise<void> {
  let after: { naturalKey: string; id: string } | undefined;
  for (;;) {
    let page = keptRows(db, applicationId, entry)
      .select(['id', 'natural_key', sql<string>`md5(${storedShape(entry)})`.as('digest')])
      .orderBy('natural_key')
      .orderBy('id')
      .limit(ROW_PAGE);
    if (after) page = page.where(sql<boolean>`(natural_key, id) > (${after.naturalKey}, ${after.id}::uuid)`);
    const rows = await page.execute();
    for (const row of rows) byDigest.get(row.digest)?.rowIds?.push(row.id);
    if (rows.length < ROW_PAGE) return;
    const last = rows[rows.length - 1]!;
    after = { naturalKey: last.natural_key, id: last.id };
  }
}

/** Additional files a backup reads the description of per statement; their contents are read a few at a time. */
const FILES_PAGE = 500;

/** The additional files a backup keeps, a page at a time in the order of their creation. */
async function* additionalFilePages(db: Kysely<Schema>, applicationId: string) {
  let after: { createdAt: string; id: string } | undefined;
  for (;;) {
    let page = db
      .selectFrom('additional_files as a')
      .leftJoin('users as o', 'o.id', 'a.owner_id')
      .select([
        'a.id',
        'a.file_type',
        'a.file_name',
        'a.content_type',
        'a.size',
        'a.content_id as contentId',
        'a.comment',
        'a.fields',
        'a.associates',
        'a.for_application',
        sql<string | null>`coalesce(a.original_owner, o.login)`.as('owner_login'),
        'a.created_at',
        // Exact to the microsecond, where a date is to the millisecond: the next page starts right after it.
        sql<string>`a.created_at::text`.as('created_key'),
        'a.updated_at',
      ])
      .where('a.application_id', '=', applicationId)
      .orderBy('a.created_at')
      .orderBy('a.id')
      .limit(FILES_PAGE);
    if (after)
      page = page.where(sql<boolean>`(a.created_at, a.id) > (${after.createdAt}::timestamptz, ${after.id}::uuid)`);
    const files = await page.execute();
    if (files.length > 0) yield files;
    if (files.length < FILES_PAGE) return;
    const last = files[files.length - 1]!;
    after = { createdAt: last.created_key, id: last.id };
  }
}

async function additionalFilesBytes(db: Kysely<Schema>, applicationId: string): Promise<number> {
  const total = await db
    .selectFrom('additional_files')
    .select((eb) => eb.fn.sum<number>('size').as('bytes'))
    .where('application_id', '=', applicationId)
    .executeTakeFirst();
  return Number(total?.bytes ?? 0);
}

const isoLocal = (date: Date | null) => (date ? date.toISOString().slice(0, 19) : null);

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
      const zip = new ZipOutput();
      const dynamics = await dynamicColumns(db, application.id, model);
      const examples = await referenceExamples(db, application.id, model);
      const words: ExampleWords = {
        text: EXAMPLE_TEXT[options.locale],
        reference: (name) => examples.get(name) ?? name,
      };
      const entries = model.loadOrder.map((name) => model.data.find((d) => d.name === name)!).filter(Boolean);
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

      const data: BundleData[] = [];
      const depositList: BundleDeposit[] = [];
      const additionalFiles: BundleAdditionalFile[] = [];
      if (options.withData) {
        for (const [index, entry] of entries.entries()) {
          const texts = await rowTextsFor(db, application.id, entry);
          const shapes = await shapesOf(db, application.id, entry, texts);
          const item: BundleData = { dataName: entry.name, kind: entry.kind, restored: !isVersioned(entry), files: [] };
          for (const [part, shape] of shapes.entries()) {
            const writer = new EntryCsvWriter(entry, shape.shape, { dynamicHeader: dynamics.header, texts });
            let rows = 0;
            const lines = async function* () {
              yield writer.head();
              for await (const page of rowPages(db, application.id, entry, shape)) {
                rows += page.length;
                if (page.length > 0) yield page.map((row) => writer.line(row)).join('');
              }
            };
            const path = `data/${pad(index)}_${entry.name}${part > 0 ? `-${part + 1}` : ''}.csv`;
            item.files.push({ ...(yield* zip.add(path, lines())), rows });
          }
          data.push(item);
        }
        for await (const [deposit, content] of backupVersions(db, application.id)) {
          const path = `deposits/${deposit.data_name}/${deposit.id}/${segment(deposit.file_name)}`;
          const file = yield* zip.add(path, content);
          depositList.push({
            ...file,
            dataName: deposit.data_name,
            fileName: deposit.file_name,
            rowCount: deposit.row_count,
            comment: deposit.comment,
            scope: deposit.scope,
            from: isoLocal(deposit.period_from),
            to: isoLocal(deposit.period_to),
            createdAt: deposit.created_at.toISOString(),
            createdBy: deposit.created_login,
            published: deposit.published,
            publishedAt: deposit.published_at ? deposit.published_at.toISOString() : null,
            publishedBy: deposit.published_login,
          });
        }
        for await (const page of additionalFilePages(db, application.id)) {
          for await (const [stored, content] of storedFiles(db, page)) {
            const path = `additional-files/${segment(stored.file_type)}/${stored.id}/${segment(stored.file_name)}`;
            const file = yield* zip.add(path, content);
            additionalFiles.push({
              ...file,
              fileType: stored.file_type,
              fileName: stored.file_name,
              contentType: stored.content_type,
              comment: stored.comment,
              fields: stored.fields,
              associates: stored.associates,
              forApplication: stored.for_application,
              owner: stored.owner_login,
              createdAt: stored.created_at.toISOString(),
              updatedAt: stored.updated_at.toISOString(),
            });
          }
        }
      }

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
      yield* zip.add(MANIFEST_PATH, [JSON.stringify(manifest, null, 2)]);
      yield* zip.end();
    })(),
  };
}
