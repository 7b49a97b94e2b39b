/**
 * Reference suggestions search the label people see: on every reference of the OpenADOM corpus that has a display
 * pattern, loaded over HTTP, the label the database computes for its search indexes (`labelExpression`) is, row for
 * row and in French and English, the folded `rowDisplay` the tables and the suggestions show. Dates and lists are
 * searched in their stored form (decisions.md, *Reference filters by what people see*): rows showing one are
 * counted apart, not compared.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowDisplay, displayTemplate } from '../../src/domain/rows/rowDisplay.ts';
import { foldForSearch } from '../../src/domain/text/searchFold.ts';
import { labelExpression } from '../../server/services/referenceSuggestions.ts';
import { loadCorpus } from '../corpus/manifest.ts';
import { corpusApplications } from './corpusApplications.ts';
import { csvForm, startDataServer, type DataServer } from './dataFixtures.ts';

const corpus = loadCorpus();
const planned = corpus ? corpusApplications(corpus) : { applications: [], unread: [] };

let data: DataServer;

beforeAll(async () => {
  if (!corpus) return;
  data = await startDataServer();
  for (const application of planned.applications) {
    const created = await data.admin.post(`/applications/${application.name}`, {
      body: csvForm(application.configurationFile, application.configuration),
    });
    expect(created.text, application.label).toContain('"type":"result"');
    for (const upload of application.uploads) {
      const entry = application.model.data.find((item) => item.name === upload.dataName)!;
      if (entry.kind !== 'reference') continue;
      const answer = await data.admin.post(`/applications/${application.name}/references/${upload.dataName}`, {
        body: csvForm(upload.fileName, upload.text),
      });
      expect(answer.status, `${application.label} ${upload.fileName}: ${answer.text}`).toBe(201);
    }
  }
}, 300_000);
afterAll(() => data?.server.close());

describe.skipIf(!corpus)('the searched label of every corpus reference with a display pattern', () => {
  it('is the label shown, folded, row for row, in French and English', async () => {
    const { ctx } = data.server.server;
    let compared = 0;
    let withReferencePart = 0;
    let storedForm = 0;
    for (const application of planned.applications) {
      const { model } = application;
      const { id } = await ctx.db
        .selectFrom('applications')
        .select('id')
        .where('name', '=', application.name)
        .executeTakeFirstOrThrow();
      for (const entry of model.data.filter((item) => item.kind === 'reference' && item.displayPattern)) {
        const checkers = new Map(entry.components.map((component) => [component.key, component.checker]));
        for (const locale of ['fr', 'en']) {
          const parts = displayTemplate(entry, locale, model.defaultLanguage)!.parts.flatMap((part) =>
            'component' in part ? [part.component] : [],
          );
          const rows = await sql<{ natural_key: string; values: Record<string, unknown>; label: string }>`
            select natural_key, values, ${sql.raw(labelExpression(entry, locale, model.defaultLanguage))} as label
            from data_rows where application_id = ${id} and data_name = ${entry.name}`.execute(ctx.db);
          for (const row of rows.rows) {
            const shownInStoredForm = parts.some(
              (part) =>
                Array.isArray(row.values[part]) ||
                (typeof row.values[part] === 'string' && (row.values[part] as string).startsWith('date:')),
            );
            if (shownInStoredForm) {
              storedForm += 1;
              continue;
            }
            const shown = rowDisplay(entry, row.values, row.natural_key, locale, model.defaultLanguage);
            expect(row.label, `${application.label} ${entry.name} ${row.natural_key} (${locale})`).toBe(
              foldForSearch(shown),
            );
            compared += 1;
            if (parts.some((part) => checkers.get(part)?.kind === 'reference')) withReferencePart += 1;
          }
        }
      }
    }
    // The corpus has labels naming other references' rows (monsore's sites and their parents): compared, not skipped.
    expect(compared).toBeGreaterThan(100);
    expect(withReferencePart).toBeGreaterThan(0);
    console.info(`${compared} labels compared (${withReferencePart} with a reference), ${storedForm} in stored form`);
  });
});
