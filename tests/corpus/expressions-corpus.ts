/**
 * Reads the OpenADOM corpus in place for the expression suite: every Groovy expression with where it sits, the
 * data entries of a configuration (multi-file layouts merged), and CSV rows mapped to component keys. Nothing
 * from the corpus is copied into the project.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import Papa from 'papaparse';
import { parse } from 'yaml';
import { type ApplicationValue, type ReferenceRow, compositeKey } from '../../src/domain/expressions';

export const CORPUS_FOLDER = path.resolve(
  process.env.TERRAIN_CORPUS ?? path.join(import.meta.dirname, '../../../shared/corpus/openadom'),
);

export function corpusAvailable(): boolean {
  return existsSync(path.join(CORPUS_FOLDER, 'manifest.json'));
}

type YamlMap = Record<string, unknown>;

export interface CorpusExpression {
  /** Configuration file, relative to the corpus folder. */
  readonly file: string;
  /** Keys from the root of the (merged) configuration to OA_expression, e.g. OA_data > bugs > … */
  readonly location: readonly string[];
  readonly dataName: string;
  /** The component or validation the expression belongs to. */
  readonly owner: string;
  readonly kind: 'computation' | 'defaultValue' | 'validation';
  readonly source: string;
  readonly references: readonly string[];
}

function isMap(value: unknown): value is YamlMap {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function readYaml(file: string): unknown {
  return parse(readFileSync(path.join(CORPUS_FOLDER, file), 'utf8'));
}

export function yamlFiles(folder: string): string[] {
  return readdirSync(path.join(CORPUS_FOLDER, folder), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(folder, entry.name);
    if (entry.isDirectory()) return yamlFiles(relative);
    return entry.name.endsWith('.yaml') ? [relative] : [];
  });
}

/** Where a file's content sits in the configuration: multi-file layouts nest `OA_data/x.yaml` under OA_data > x. */
function rootPrefix(file: string): string[] {
  const parts = file.split(path.sep);
  const multi = parts.indexOf('multiyaml');
  if (multi < 0) return [];
  const inner = parts.slice(multi + 1).map((part) => part.replace(/\.yaml$/, ''));
  return inner.filter((part) => part !== 'configuration');
}

function ownerOf(location: readonly string[]): string {
  const validations = location.indexOf('OA_validations');
  if (validations >= 0) return location[validations + 1];
  const marker = location.findIndex((key) => key === 'OA_computation' || key === 'OA_defaultValue');
  return location[marker - 1];
}

export function corpusExpressions(): CorpusExpression[] {
  const found: CorpusExpression[] = [];
  for (const file of yamlFiles('.').sort()) {
    const visit = (node: unknown, location: string[]) => {
      if (Array.isArray(node)) node.forEach((item, k) => visit(item, [...location, String(k)]));
      if (!isMap(node)) return;
      for (const [key, value] of Object.entries(node)) {
        if (key === 'OA_expression' && typeof value === 'string') {
          const references = Array.isArray(node.OA_references) ? node.OA_references.map(String) : [];
          const kind = location.includes('OA_validations')
            ? 'validation'
            : location.includes('OA_defaultValue')
              ? 'defaultValue'
              : 'computation';
          found.push({
            file,
            location,
            dataName: location[1],
            owner: ownerOf(location),
            kind,
            source: value,
            references,
          });
        } else visit(value, [...location, key]);
      }
    };
    visit(readYaml(file), rootPrefix(file));
  }
  return found;
}

/** The data entries of a configuration, with a multi-file layout merged the way §1.2 describes. */
export function dataEntries(file: string): Record<string, YamlMap> {
  const folder = file.split(path.sep);
  const multi = folder.indexOf('multiyaml');
  if (multi < 0) {
    const root = readYaml(file);
    return isMap(root) && isMap(root.OA_data) ? (root.OA_data as Record<string, YamlMap>) : {};
  }
  const base = folder.slice(0, multi + 1).join(path.sep);
  const entries: Record<string, YamlMap> = {};
  for (const part of yamlFiles(base)) {
    const prefix = rootPrefix(part);
    const content = readYaml(part);
    if (prefix[0] !== 'OA_data' || !isMap(content)) continue;
    if (prefix.length === 2) entries[prefix[1]] = content;
    else Object.assign(entries, content);
  }
  return entries;
}

/** `application` as the original shows it to expressions: every data entry with its titles. */
export function applicationValue(file: string, name: string): ApplicationValue {
  const data: Record<string, { i18n: { title: Record<string, string>; description: Record<string, string> } }> = {};
  for (const [dataName, entry] of Object.entries(dataEntries(file))) {
    const i18n = isMap(entry.OA_i18n) ? entry.OA_i18n : {};
    data[dataName] = {
      i18n: {
        title: (isMap(i18n.OA_title) ? i18n.OA_title : {}) as Record<string, string>,
        description: (isMap(i18n.OA_description) ? i18n.OA_description : {}) as Record<string, string>,
      },
    };
  }
  return { name, configuration: { i18n: { data } } };
}

interface Manifest {
  applications: Record<string, { load_order?: { file: string; data: string }[] }>;
}

/** The CSV rows of a data entry (file from the manifest), keyed by component key through the import headers. */
export function csvRows(application: string, dataName: string, entry: YamlMap): Record<string, string>[] {
  const manifest = JSON.parse(readFileSync(path.join(CORPUS_FOLDER, 'manifest.json'), 'utf8')) as Manifest;
  const load = manifest.applications[application]?.load_order?.find((item) => item.data === dataName);
  if (!load) throw new Error(`no CSV for ${application}/${dataName} in the manifest`);
  const text = readFileSync(path.join(CORPUS_FOLDER, application, load.file), 'utf8');
  const separator = typeof entry.OA_separator === 'string' ? entry.OA_separator[0] : ';';
  const lines = Papa.parse<string[]>(text.replace(/\r\n/g, '\n'), { delimiter: separator, skipEmptyLines: false }).data;
  const headerLine = typeof entry.OA_dataHeaderLine === 'number' ? entry.OA_dataHeaderLine : 1;
  const firstLine = typeof entry.OA_dataFirstLine === 'number' ? entry.OA_dataFirstLine : headerLine + 1;
  const headerToComponent = new Map<string, string>();
  const basic = isMap(entry.OA_basicComponents) ? entry.OA_basicComponents : {};
  for (const [component, body] of Object.entries(basic)) {
    const header = isMap(body) ? body.OA_importHeader : undefined;
    const name =
      typeof header === 'string'
        ? header
        : isMap(header) && typeof header.OA_headerName === 'string'
          ? header.OA_headerName
          : component;
    headerToComponent.set(name.trim(), component);
  }
  const headers = lines[headerLine - 1].map((header) => header.trim());
  return lines
    .slice(firstLine - 1)
    .filter((cells) => cells.some((cell) => cell.trim() !== ''))
    .map((cells) =>
      Object.fromEntries(headers.map((header, k) => [headerToComponent.get(header) ?? header, cells[k] ?? ''])),
    );
}

/** Reference rows as `references.<name>` lists them; the hierarchical key is `<name>K<natural key>` (no parents). */
export function referenceRows(
  dataName: string,
  entry: YamlMap,
  rows: readonly Record<string, string>[],
): ReferenceRow[] {
  const naturalKey = Array.isArray(entry.OA_naturalKey) ? entry.OA_naturalKey.map(String) : [];
  return rows.map((refValues) => {
    const key = compositeKey(naturalKey.map((component) => (refValues[component] ?? '').trim()));
    return { naturalKey: key, hierarchicalKey: `${dataName}K${key}`, refValues };
  });
}
