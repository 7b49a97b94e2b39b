/**
 * Typed reading of the OpenADOM compatibility corpus index (`../shared/corpus/openadom/manifest.json`). The corpus
 * stays outside the project; when it is absent (a fresh clone), {@link loadCorpus} says so and the checks are skipped.
 * Later sections (CSV uploads, deposits) read `loadOrder` and the per-file expectations from the same types.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface ManifestConfig {
  file: string;
  expected: 'valid' | 'invalid';
  expected_basis?: string;
  expected_error?: string;
  data_entries?: string[];
  application?: { OA_name: string; OA_version: string };
  line_endings?: 'LF' | 'CRLF';
}

/** One single-edit test of `validation/broken-fake-app.yaml`, as the manifest paraphrases it. */
export interface ManifestMutation {
  change: string;
  expected_error?: string;
  expected_message?: string;
  message?: string;
  params?: Record<string, unknown>;
  params_keys?: string[];
  path?: string;
  path_example?: string;
  path_suffix?: string;
  error_count?: number;
  note?: string;
}

export interface ManifestLoad {
  file: string;
  data: string;
  mapping_basis?: string;
  expected?: Record<string, unknown>;
  notes?: string[];
}

export interface ManifestMultiYaml {
  folder: string;
  expected: string;
  expected_after_merge?: { OA_data_entries: number; OA_application_keys: number; OA_tags: number };
}

export interface ManifestApplication {
  kind: string;
  configs: ManifestConfig[];
  load_order?: ManifestLoad[];
  mutation_tests?: ManifestMutation[];
  multi_yaml?: ManifestMultiYaml;
}

export interface Manifest {
  applications: Record<string, ManifestApplication>;
}

export interface Corpus {
  folder: string;
  manifest: Manifest;
  /** Bytes of a corpus file, by path relative to the corpus folder. */
  read(relativePath: string): Uint8Array;
}

/** The corpus folder: `TERRAIN_CORPUS` when set, otherwise `../shared/corpus/openadom` beside the project. */
export function corpusFolder(): string {
  return process.env.TERRAIN_CORPUS ?? path.resolve(import.meta.dirname, '../../../shared/corpus/openadom');
}

export function loadCorpus(folder = corpusFolder()): Corpus | undefined {
  const manifestPath = path.join(folder, 'manifest.json');
  if (!existsSync(manifestPath)) return undefined;
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  return {
    folder,
    manifest,
    read: (relativePath) => new Uint8Array(readFileSync(path.join(folder, relativePath))),
  };
}
