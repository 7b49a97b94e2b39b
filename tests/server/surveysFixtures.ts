import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { HttpClient } from './httpClient.ts';

const fixtures = path.resolve(import.meta.dirname, '../fixtures');
/** A fixture file's bytes (`configurations/…`, `csv/…`). */
export const fixtureFile = (name: string) => readFileSync(path.join(fixtures, name));

/** A multipart form: `params` (JSON) first when given, then `file`. */
export function fileForm(fileName: string, bytes: Uint8Array, params?: object) {
  const data = new FormData();
  if (params) data.append('params', JSON.stringify(params));
  data.append('file', new Blob([new Uint8Array(bytes)]), fileName);
  return data;
}

/**
 * Creates the `surveys` application (versioned counts per project, site and day) under `name` and loads its three
 * references; fails the test unless each load is stored.
 */
export async function createSurveys(admin: HttpClient, name = 'surveys') {
  await admin.post(`/applications/${name}`, {
    body: fileForm('surveys.yaml', fixtureFile('configurations/surveys.yaml')),
  });
  for (const [reference, csv] of [
    ['projects', 'surveys-projects.csv'],
    ['sites', 'surveys-sites.csv'],
    ['species', 'surveys-species.csv'],
  ]) {
    const loaded = await admin.post(`/applications/${name}/references/${reference}`, {
      body: fileForm(csv, fixtureFile(`csv/${csv}`)),
    });
    expect(loaded.status, loaded.text).toBe(201);
  }
}
