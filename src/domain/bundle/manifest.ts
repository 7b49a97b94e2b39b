import type { DataEntry } from '../configuration/model.ts';

/**
 * `manifest.json` of an upload bundle: what the zip holds, where, and the SHA-256 of every file. A kit holds the
 * configuration, a README and the templates; a backup adds every row as CSV in load order, the deposited versions
 * (with their scope, period and publication) and the additional files. A restore reads nothing the manifest does
 * not list, and checks every file against its checksum.
 */
export const BUNDLE_FORMAT = 'terrain-upload-bundle';
export const BUNDLE_FORMAT_VERSION = 1;
export const MANIFEST_PATH = 'manifest.json';
/** The most files a restore reads from a bundle: a backup never writes more. */
export const MAX_BUNDLE_ENTRIES = 100_000;
/** The largest manifest a restore reads (it is read whole): a backup never writes a larger one. */
export const MAX_MANIFEST_BYTES = 64 * 1024 * 1024;

/**
 * The manifest as written in a bundle: indented to be read, unless that makes it too large for a restore to read,
 * then on one line. A manifest too large even so fails the backup, loudly, rather than give a file no restore reads.
 */
export function manifestText(manifest: BundleManifest, maxBytes = MAX_MANIFEST_BYTES): string {
  const readable = JSON.stringify(manifest, null, 2);
  if (new TextEncoder().encode(readable).byteLength <= maxBytes) return readable;
  const compact = JSON.stringify(manifest);
  if (new TextEncoder().encode(compact).byteLength <= maxBytes) return compact;
  throw new Error(`the manifest would exceed the ${maxBytes} bytes a restore reads`);
}

export interface BundleFile {
  /** Path inside the zip. */
  path: string;
  size: number;
  sha256: string;
}

export interface BundleDataFile extends BundleFile {
  rows: number;
}

export interface BundleData {
  dataName: string;
  kind: 'reference' | 'dataType';
  /**
   * Whether a restore loads these files. Versioned data types are restored from their deposits (their CSV here is
   * the published rows, for reading).
   */
  restored: boolean;
  /** One file per shape of rows (different constants or columns), usually one. */
  files: BundleDataFile[];
}

/** Whether an entry is a versioned data type: its rows are its published versions', restored from its deposits. */
export const isVersioned = (entry: DataEntry) =>
  entry.kind === 'dataType' && entry.submission.strategy === 'OA_VERSIONING';

export interface BundleDeposit extends BundleFile {
  dataName: string;
  fileName: string;
  rowCount: number;
  comment: string;
  /** Reference-scope component → hierarchical key of the row. */
  scope: Record<string, string>;
  /** ISO local date-times, or null without a time scope. */
  from: string | null;
  to: string | null;
  createdAt: string;
  /** Logins of who did it, kept as text by a restore (never matched with the accounts where it is restored). */
  createdBy: string | null;
  published: boolean;
  publishedAt: string | null;
  publishedBy: string | null;
}

export interface BundleAdditionalFile extends BundleFile {
  fileType: string;
  fileName: string;
  contentType: string;
  comment: string;
  fields: Record<string, string>;
  associates: Record<string, unknown>;
  forApplication: boolean;
  /** Login, kept as text like the depositors'. */
  owner: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface BundleManifest {
  format: typeof BUNDLE_FORMAT;
  formatVersion: number;
  kind: 'kit' | 'backup';
  createdAt: string;
  locale: string;
  application: { name: string; version: string; comment: string; creationDate: string; updateDate: string };
  configuration: BundleFile & { fileName: string };
  readme: BundleFile;
  templates: Array<BundleFile & { dataName: string }>;
  /** `deposit.mjs`: absent when no versioned data type names its files (and from bundles made before it). */
  depositScript?: BundleFile;
  /** In load order: each entry after the references it needs. */
  data: BundleData[];
  /** Oldest first. */
  deposits: BundleDeposit[];
  additionalFiles: BundleAdditionalFile[];
}

export type ManifestProblem = { reason: string; path?: string; entry?: string };

type Check = (value: unknown) => boolean;
const isString: Check = (value) => typeof value === 'string';
const isNullableString: Check = (value) => value === null || typeof value === 'string';
const isCount: Check = (value) => Number.isSafeInteger(value) && (value as number) >= 0;
const isBoolean: Check = (value) => typeof value === 'boolean';
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isStringMap: Check = (value) => isObject(value) && Object.values(value).every(isString);
const isSha256: Check = (value) => typeof value === 'string' && /^[0-9a-f]{64}$/.test(value);

const FILE: Record<string, Check> = { path: isString, size: isCount, sha256: isSha256 };
const SHAPES = {
  configuration: { ...FILE, fileName: isString },
  readme: FILE,
  template: { ...FILE, dataName: isString },
  dataFile: { ...FILE, rows: isCount },
  deposit: {
    ...FILE,
    dataName: isString,
    fileName: isString,
    rowCount: isCount,
    comment: isString,
    scope: isStringMap,
    from: isNullableString,
    to: isNullableString,
    createdAt: isString,
    createdBy: isNullableString,
    published: isBoolean,
    publishedAt: isNullableString,
    publishedBy: isNullableString,
  },
  additionalFile: {
    ...FILE,
    fileType: isString,
    fileName: isString,
    contentType: isString,
    comment: isString,
    fields: isStringMap,
    associates: isObject,
    forApplication: isBoolean,
    owner: isNullableString,
    createdAt: isString,
    updatedAt: isString,
  },
} satisfies Record<string, Record<string, Check>>;

function fits(value: unknown, shape: Record<string, Check>): boolean {
  return isObject(value) && Object.entries(shape).every(([key, check]) => check(value[key]));
}

const listOf = (value: unknown, shape: Record<string, Check>) =>
  Array.isArray(value) && value.every((item) => fits(item, shape));

/** The manifest of a bundle, or what is wrong with it (a hand-made or damaged zip). */
export function readManifest(
  text: string,
): { ok: true; manifest: BundleManifest } | { ok: false; problem: ManifestProblem } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: { reason: 'manifestNotJson' } };
  }
  if (!isObject(value) || value.format !== BUNDLE_FORMAT) return { ok: false, problem: { reason: 'notABundle' } };
  if (value.formatVersion !== BUNDLE_FORMAT_VERSION) return { ok: false, problem: { reason: 'unknownFormatVersion' } };
  const parts: Array<[string, boolean]> = [
    ['kind', value.kind === 'kit' || value.kind === 'backup'],
    ['application', fits(value.application, { name: isString, version: isString, comment: isString })],
    ['configuration', fits(value.configuration, SHAPES.configuration)],
    ['readme', fits(value.readme, SHAPES.readme)],
    ['templates', listOf(value.templates, SHAPES.template)],
    [
      'data',
      Array.isArray(value.data) &&
        value.data.every(
          (item) =>
            fits(item, { dataName: isString, restored: isBoolean }) &&
            (item.kind === 'reference' || item.kind === 'dataType') &&
            listOf(item.files, SHAPES.dataFile),
        ),
    ],
    ['deposits', listOf(value.deposits, SHAPES.deposit)],
    ['additionalFiles', listOf(value.additionalFiles, SHAPES.additionalFile)],
  ];
  const wrong = parts.find(([, ok]) => !ok);
  if (wrong) return { ok: false, problem: { reason: 'badManifest', path: wrong[0] } };
  const manifest = value as unknown as BundleManifest;
  // A file listed twice was restored as many times as listed: a zip of a few kilobytes listing one file of rows
  // hundreds of thousands of times kept a core busy for days, and counted rows the application does not hold.
  const twice = listedTwice(manifest);
  if (twice !== undefined) return { ok: false, problem: { reason: 'fileListedTwice', entry: twice } };
  return { ok: true, manifest };
}

/** The first path the manifest lists for two files, configuration, rows, versions and additional files alike. */
function listedTwice(manifest: BundleManifest): string | undefined {
  const seen = new Set<string>();
  const files = [
    manifest.configuration,
    ...manifest.data.flatMap((data) => data.files),
    ...manifest.deposits,
    ...manifest.additionalFiles,
  ];
  for (const { path } of files) {
    if (seen.has(path)) return path;
    seen.add(path);
  }
  return undefined;
}
