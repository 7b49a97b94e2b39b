/**
 * The applications of the OpenADOM corpus (`TERRAIN_CORPUS`, else `../shared/corpus/openadom`, read in place),
 * loaded into a server over HTTP as its manifest says: one application per valid configuration, each file of the
 * load order sent to the entry the manifest names, references before what needs them (the configuration's load
 * order), the corpus suite's hand-made references where the corpus has none (doc_meteo). A configuration reads the
 * files the CSV engine accepts with it (a variant's files belong to its own folder); every file of the manifest is
 * read by one of them at least, except the header mismatches the corpus suite expects.
 *
 * Data types with versioning are deposited: one version per scope the file's rows fall in (a depositor sends one
 * file per dataset), over the rows' period, published unless a published version of the same scope overlaps it
 * (monsore's named file then stays unpublished). Each application also gets a charter and one additional file
 * per type its configuration declares.
 */
import path from 'node:path';
import { validateConfiguration, type ApplicationModel, type DataEntry } from '../../src/domain/configuration/index.ts';
import { validateCsvText, type CsvRow, type StoredRow } from '../../src/domain/csv/index.ts';
import { HAND_MADE_REFERENCES, HEADER_MISMATCHES } from './csv.ts';
import type { Corpus } from './manifest.ts';

/** A file sent as it is to a reference or a data type without versioning. */
interface Upload {
  dataName: string;
  fileName: string;
  text: string;
}

/** A version of a versioned data type: the lines of one scope, over their period. */
export interface Deposit extends Upload {
  /** Reference-scope component → hierarchical key. */
  scope: Record<string, string>;
  from: string | null;
  to: string | null;
  publish: boolean;
}

export interface CorpusApplication {
  /** The Terrain application's name. */
  name: string;
  /** `<corpus application>/<configuration file>`, for messages. */
  label: string;
  configurationFile: string;
  configuration: Uint8Array;
  model: ApplicationModel;
  uploads: Upload[];
  deposits: Deposit[];
  /** A natural key of a loaded row of each reference (additional files' reference fields). */
  firstKeys: Map<string, string>;
}

const decoder = new TextDecoder();
const isVersioned = (entry: DataEntry) => entry.kind === 'dataType' && entry.submission.strategy === 'OA_VERSIONING';

/**
 * Every corpus application with a valid configuration, planned with the CSV engine (see the module comment), and
 * the files of the manifest none of them reads.
 */
export function corpusApplications(corpus: Corpus): { applications: CorpusApplication[]; unread: string[] } {
  const planned: CorpusApplication[] = [];
  const read = new Set<string>();
  for (const [application, definition] of Object.entries(corpus.manifest.applications)) {
    const configs = definition.configs.filter((config) => config.expected === 'valid');
    configs.forEach((config, index) => {
      const configuration = corpus.read(path.join(application, config.file));
      const validated = validateConfiguration(configuration, config.file);
      if (!validated.ok) return;
      const name = `${application.toLowerCase()}${configs.length > 1 ? `_${index + 1}` : ''}`;
      planned.push(plan(corpus, application, name, config.file, configuration, validated.value, read));
    });
  }
  const unread = Object.entries(corpus.manifest.applications)
    .flatMap(([application, definition]) => (definition.load_order ?? []).map((load) => `${application}/${load.file}`))
    .filter((file) => !read.has(file) && !HEADER_MISMATCHES[file]);
  return { applications: planned, unread };
}

function plan(
  corpus: Corpus,
  application: string,
  name: string,
  configurationFile: string,
  configuration: Uint8Array,
  model: ApplicationModel,
  read: Set<string>,
): CorpusApplication {
  const planned: CorpusApplication = {
    name,
    label: `${application}/${configurationFile}`,
    configurationFile,
    configuration,
    model,
    uploads: [],
    deposits: [],
    firstKeys: new Map(),
  };
  const known = new Map<string, StoredRow[]>();
  const published: Deposit[] = [];
  const loads = corpus.manifest.applications[application].load_order ?? [];
  for (const dataName of model.loadOrder) {
    const entry = model.data.find((item) => item.name === dataName)!;
    const files = loads
      .filter((load) => load.data === dataName)
      .map((load) => ({
        fileName: path.posix.basename(load.file),
        source: `${application}/${load.file}`,
        text: decoder.decode(corpus.read(path.join(application, load.file))),
      }));
    const handMade = HAND_MADE_REFERENCES[application]?.[dataName];
    if (handMade && files.length === 0) files.push({ fileName: `${dataName}.csv`, source: '', text: handMade });
    for (const file of files) {
      const checked = validateCsvText(
        { model, dataName, fileName: file.fileName, references: { rows: (reference) => known.get(reference) ?? [] } },
        file.text,
      );
      if (checked.report.errorCount > 0) continue;
      read.add(file.source);
      if (isVersioned(entry)) {
        for (const deposit of depositsOf(entry, file, checked.rows)) {
          deposit.publish = !published.some((other) => overlaps(deposit, other));
          if (deposit.publish) published.push(deposit);
          planned.deposits.push(deposit);
        }
        continue;
      }
      planned.uploads.push({ dataName, fileName: file.fileName, text: file.text });
      const byKey = new Map((known.get(dataName) ?? []).map((row) => [row.naturalKey, row]));
      for (const row of checked.rows)
        byKey.set(row.naturalKey, {
          naturalKey: row.naturalKey,
          hierarchicalKey: row.hierarchicalKey,
          values: row.values,
        });
      known.set(dataName, [...byKey.values()]);
      if (!planned.firstKeys.has(dataName) && checked.rows[0])
        planned.firstKeys.set(dataName, checked.rows[0].naturalKey);
    }
  }
  return planned;
}

/** The file's lines grouped by the scope of their rows, each group with the lines above the data. */
function depositsOf(entry: DataEntry, file: { fileName: string; text: string }, rows: readonly CsvRow[]): Deposit[] {
  const lines = file.text.split(/\r?\n/);
  const head = lines.slice(0, Math.max(entry.csv.headerLine + 1, entry.csv.firstDataLine) - 1);
  const components = entry.submission.referenceScopes.map((scope) => scope.component);
  const groups = new Map<string, Deposit>();
  for (const row of rows) {
    const scope = Object.fromEntries(components.map((component) => [component, String(row.values[component])]));
    const key = JSON.stringify(scope);
    let group = groups.get(key);
    if (!group) {
      const part = groups.size + 1;
      groups.set(
        key,
        (group = {
          dataName: entry.name,
          fileName: file.fileName.replace(/\.csv$/, `_${part}.csv`),
          text: head.join('\n') + '\n',
          scope,
          from: null,
          to: null,
          publish: false,
        }),
      );
    }
    group.text += `${lines[row.lineNumber - 1]}\n`;
    const start = row.period?.from;
    if (start && (group.from === null || start < group.from)) group.from = start;
    if (start && (group.to === null || start > group.to)) group.to = start;
  }
  return [...groups.values()];
}

/** Two versions the server would not both publish: same scope, periods overlapping without being the same. */
function overlaps(one: Deposit, other: Deposit): boolean {
  if (one.dataName !== other.dataName || JSON.stringify(one.scope) !== JSON.stringify(other.scope)) return false;
  if (one.from === other.from && one.to === other.to) return false;
  return one.from === null || other.from === null || !(one.to! < other.from || other.to! < one.from);
}

/** Creates the application and loads it over HTTP as planned. */

/** The `params` part of a planned deposit's request: its dataset, period and whether to publish it. */
export function depositParams(deposit: Deposit) {
  return {
    binaryfiledataset: {
      datatype: deposit.dataName,
      requiredAuthorizations: deposit.scope,
      ...(deposit.from ? { from: deposit.from, to: deposit.to } : {}),
      comment: `corpus ${deposit.fileName}`,
    },
    topublish: deposit.publish,
  };
}
