/**
 * The configuration section of the corpus suite: every corpus configuration against the manifest's verdict, the
 * multi-YAML zip, the load order of each application, and the single-edit tests of `broken-fake-app.yaml`. Each
 * check gives one row; `npm run corpus` prints them and the vitest suite asserts them.
 */
import path from 'node:path';
import { zipSync } from 'fflate';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import type { ConfigurationError, ConfigurationResult } from '../../src/domain/configuration';
import { configurationMessageKey, readConfigurationDocument } from '../../src/domain/configuration';
import { applyEdit, BROKEN_FAKE_APP_EDITS } from './brokenFakeAppEdits';
import type { Corpus, ManifestMutation } from './manifest';

export type Validate = (bytes: Uint8Array, fileName: string) => ConfigurationResult;

export interface CheckRow {
  section: string;
  name: string;
  expected: string;
  obtained: string;
  ok: boolean;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function checkConfigurations(corpus: Corpus, validate: Validate): CheckRow[] {
  return [
    ...checkFiles(corpus, validate),
    ...checkMultiYaml(corpus, validate),
    ...checkLoadOrders(corpus, validate),
    ...checkMutations(corpus, validate),
  ];
}

function summarize(result: ConfigurationResult): string {
  if (result.ok) return 'valid';
  const counts = new Map<string, number>();
  for (const error of result.errors) counts.set(error.code, (counts.get(error.code) ?? 0) + 1);
  return `invalid: ${[...counts].map(([code, count]) => (count > 1 ? `${code}×${count}` : code)).join(', ')}`;
}

function checkFiles(corpus: Corpus, validate: Validate): CheckRow[] {
  const rows: CheckRow[] = [];
  for (const [application, definition] of Object.entries(corpus.manifest.applications)) {
    for (const config of definition.configs) {
      const result = validate(corpus.read(path.join(application, config.file)), config.file);
      const expected = config.expected === 'valid' ? 'valid' : `invalid: ${config.expected_error ?? '(any code)'}`;
      let ok: boolean;
      let obtained = summarize(result);
      if (config.expected === 'valid') {
        ok = result.ok;
        if (result.ok) {
          const names = result.value.data.map((entry) => entry.name).sort();
          const wanted = [...(config.data_entries ?? [])].sort();
          if (JSON.stringify(names) !== JSON.stringify(wanted)) {
            ok = false;
            obtained += `; data entries ${names.join(',')}`;
          }
          if (
            config.application &&
            (config.application.OA_name !== result.value.name || config.application.OA_version !== result.value.version)
          ) {
            ok = false;
            obtained += `; application ${result.value.name} ${result.value.version}`;
          }
        }
      } else {
        ok =
          !result.ok &&
          (config.expected_error === undefined || result.errors.some((error) => error.code === config.expected_error));
      }
      rows.push({ section: 'configurations', name: `${application}/${config.file}`, expected, obtained, ok });
    }
  }
  return rows;
}

function folderFiles(folder: string, prefix = ''): Record<string, Uint8Array> {
  const files: Record<string, Uint8Array> = {};
  for (const name of readdirSync(folder).sort()) {
    const full = path.join(folder, name);
    if (statSync(full).isDirectory()) Object.assign(files, folderFiles(full, `${prefix}${name}/`));
    else files[`${prefix}${name}`] = new Uint8Array(readFileSync(full));
  }
  return files;
}

/** The multi-YAML layout, zipped again as the manifest says (the original zip is binary and was not copied). */
function checkMultiYaml(corpus: Corpus, validate: Validate): CheckRow[] {
  const rows: CheckRow[] = [];
  for (const [application, definition] of Object.entries(corpus.manifest.applications)) {
    const multi = definition.multi_yaml;
    if (!multi) continue;
    // configuration.yaml first, then OA_data.yaml, then the per-entry files: the original's zip order.
    const files = folderFiles(path.join(corpus.folder, application, multi.folder));
    const ordered = Object.fromEntries(
      Object.entries(files).sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b)),
    );
    const zip = zipSync(ordered);
    const result = validate(zip, `${multi.folder}.zip`);
    const merged = readConfigurationDocument(zip, `${multi.folder}.zip`);
    const counts = merged.ok
      ? {
          OA_data_entries: countKeys(merged.root.byKey.get('OA_data')?.value),
          OA_application_keys: countKeys(merged.root.byKey.get('OA_application')?.value),
          OA_tags: countKeys(merged.root.byKey.get('OA_tags')?.value),
        }
      : undefined;
    const wanted = multi.expected_after_merge;
    const countsOk = !wanted || JSON.stringify(counts) === JSON.stringify(wanted);
    rows.push({
      section: 'multi-yaml',
      name: `${application}/${multi.folder}.zip`,
      expected: `valid${wanted ? `, ${JSON.stringify(wanted)}` : ''}`,
      obtained: `${summarize(result)}${counts ? `, ${JSON.stringify(counts)}` : ''}`,
      ok: result.ok && countsOk,
    });
  }
  return rows;
}

function rank(entryPath: string): number {
  return entryPath === 'configuration.yaml' ? 0 : entryPath.includes('/') ? 2 : 1;
}

function countKeys(node: { kind: string; entries?: readonly unknown[] } | undefined): number {
  return node?.kind === 'map' ? (node.entries?.length ?? 0) : 0;
}

/** The manifest's load order must respect the dependencies the model computes (references before their users). */
function checkLoadOrders(corpus: Corpus, validate: Validate): CheckRow[] {
  const rows: CheckRow[] = [];
  for (const [application, definition] of Object.entries(corpus.manifest.applications)) {
    if (!definition.load_order) continue;
    for (const config of definition.configs) {
      if (config.expected !== 'valid') continue;
      const folder = path.dirname(config.file);
      const loads = definition.load_order.filter((load) => folder === '.' || load.file.startsWith(`${folder}/`));
      const result = validate(corpus.read(path.join(application, config.file)), config.file);
      if (!result.ok || loads.length === 0) continue;
      // Some loads belong to a sibling configuration only (recusivite-strict's parametres_mesures).
      const listed = loads
        .map((load) => load.data)
        .filter((name) => result.value.data.some((entry) => entry.name === name));
      const violations: string[] = [];
      listed.forEach((name, index) => {
        const entry = result.value.data.find((candidate) => candidate.name === name)!;
        for (const dependency of entry.dependsOn) {
          const position = listed.indexOf(dependency);
          if (position > index) violations.push(`${name} before ${dependency}`);
        }
      });
      rows.push({
        section: 'load order',
        name: `${application}/${config.file}`,
        expected: listed.join(' → '),
        obtained:
          violations.length === 0
            ? `consistent (model order ${result.value.loadOrder.join(' → ')})`
            : violations.join('; '),
        ok: violations.length === 0,
      });
    }
  }
  return rows;
}

function checkMutations(corpus: Corpus, validate: Validate): CheckRow[] {
  const rows: CheckRow[] = [];
  for (const [application, definition] of Object.entries(corpus.manifest.applications)) {
    for (const mutation of definition.mutation_tests ?? []) {
      const base = definition.configs[0];
      const text = decoder.decode(corpus.read(path.join(application, base.file)));
      const edits = BROKEN_FAKE_APP_EDITS[mutation.change];
      const expected = describeExpectation(mutation);
      if (!edits) {
        rows.push({
          section: 'mutations',
          name: mutation.change,
          expected,
          obtained: 'no edit defined for this change',
          ok: false,
        });
        continue;
      }
      edits.forEach((edit, index) => {
        const name = edits.length > 1 ? `${mutation.change} (${index + 1})` : mutation.change;
        const edited = applyEdit(text, edit);
        if (edited === undefined) {
          rows.push({
            section: 'mutations',
            name,
            expected,
            obtained: 'the edit does not apply to the file',
            ok: false,
          });
          return;
        }
        const result = validate(encoder.encode(edited), base.file);
        const failure = result.ok ? 'no error' : mismatch(mutation, result.errors);
        rows.push({
          section: 'mutations',
          name,
          expected,
          obtained: summarize(result) + (failure ? ` — ${failure}` : ''),
          ok: failure === undefined,
        });
      });
    }
  }
  return rows;
}

function describeExpectation(mutation: ManifestMutation): string {
  const parts = [mutation.expected_error ?? mutation.expected_message ?? '?'];
  if (mutation.error_count !== undefined) parts.push(`${mutation.error_count} errors`);
  return parts.join(', ');
}

/** What in the obtained errors contradicts the manifest, or undefined when they match. */
function mismatch(mutation: ManifestMutation, errors: readonly ConfigurationError[]): string | undefined {
  if (mutation.expected_message === 'multiplesErrors') return errors.length > 1 ? undefined : 'a single error';
  if (mutation.error_count !== undefined && errors.length !== mutation.error_count) return `${errors.length} errors`;
  const candidates = errors.filter((error) => error.code === mutation.expected_error);
  if (candidates.length === 0) return `no ${mutation.expected_error}`;
  const problems = candidates.map((error) => errorMismatch(mutation, error));
  return problems.includes(undefined) ? undefined : problems[0];
}

function errorMismatch(mutation: ManifestMutation, error: ConfigurationError): string | undefined {
  if (mutation.message !== undefined && configurationMessageKey(error.code) !== mutation.message)
    return `message ${configurationMessageKey(error.code)}`;
  const pathOf = (expectedPath: string) =>
    expectedPath.endsWith(' > X') ? error.path.startsWith(expectedPath.slice(0, -1)) : error.path === expectedPath;
  if (mutation.path !== undefined && error.path !== mutation.path) return `path ${error.path}`;
  if (mutation.path_example !== undefined && !pathOf(mutation.path_example)) return `path ${error.path}`;
  if (mutation.path_suffix !== undefined && !error.path.endsWith(mutation.path_suffix)) return `path ${error.path}`;
  for (const key of mutation.params_keys ?? []) if (!(key in error.params)) return `no param ${key}`;
  for (const [key, value] of Object.entries(mutation.params ?? {})) {
    const obtained = key === 'path' ? error.path : error.params[key];
    if (!sameValue(value, obtained)) return `${key} ${JSON.stringify(obtained)}`;
  }
  return undefined;
}

/** Lists are compared as sets: the original reports most of them as Java sets, whose order means nothing. */
function sameValue(expected: unknown, obtained: unknown): boolean {
  if (Array.isArray(expected) && Array.isArray(obtained)) {
    const sort = (values: unknown[]) => values.map((value) => JSON.stringify(value)).sort();
    return JSON.stringify(sort(expected)) === JSON.stringify(sort(obtained));
  }
  return JSON.stringify(expected) === JSON.stringify(obtained);
}
