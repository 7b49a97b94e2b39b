import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { ApplicationModel, DataEntry } from '../../src/domain/configuration/model.ts';
import { searchWords } from '../../src/domain/text/searchFold.ts';
import type { ServerContext } from '../context.ts';
import type { ApplicationRow } from '../db/schema.ts';
import { literal } from './filterIndexes.ts';
import { searchExpression, searchRows, wordQuery, type WordsCondition } from './referenceSuggestions.ts';

/**
 * Rows above that a word may name and still be given as ranges of the hierarchical-key index. Past it (a word
 * common among the rows above, "secteur" in a recursive reference of sectors), the word is looked for in each
 * candidate's own rows above, by their keys: the other words then choose the candidates.
 */
const ANCHORS_MAX = 50;

/** The references whose rows may lie above a row of `entry` in its key: its parents, theirs…, and itself if recursive. */
export function referencesAbove(model: ApplicationModel, entry: DataEntry): DataEntry[] {
  const found = new Map<string, DataEntry>();
  if (entry.hierarchy.recursiveComponent != null) found.set(entry.name, entry);
  const visit = (current: DataEntry) => {
    for (const parent of current.hierarchy.parents) {
      const above = model.data.find((d) => d.name === parent.reference);
      if (!above || found.has(above.name)) continue;
      found.set(above.name, above);
      visit(above);
    }
  };
  visit(entry);
  return [...found.values()];
}

/** The rows of the references above whose own label or code has a word beginning with `word`, a few at most. */
function anchorsSql(applicationId: string, above: DataEntry[], model: ApplicationModel, locale: string, word: string) {
  return above.map(
    (d) => sql`(select ${word}::text as word, hierarchical_key from data_rows
      where application_id = ${sql.raw(literal(applicationId))} and data_name = ${sql.raw(literal(d.name))}
        and file_id is null and ${sql.raw(searchExpression(d, locale, model.defaultLanguage))} @@ ${wordQuery(word)}
      limit ${ANCHORS_MAX + 1})`,
  );
}

/**
 * The keys of the rows above a row of the search's `data_rows` (named so from inside a sub-query on its own rows,
 * aliased, whose unqualified columns are then the inner row's): every prefix of its hierarchical key that ends
 * before one of its labels (`a`, `a.b` for `a.b.c`).
 */
const keysAbove = sql`array(select array_to_string((string_to_array(data_rows.hierarchical_key, '.'))[1:n], '.')
  from generate_series(1, cardinality(string_to_array(data_rows.hierarchical_key, '.')) - 1) as n)`;

/**
 * A search of a large scope tree: rows of `entry` for which every word typed begins a word of their own label or
 * code, or of a row above them ("pyr 4999": a site of the Pyrénées project). The rows above that each word names
 * are read first (a few per reference above); a row lies under one of them by a range of the hierarchical-key
 * index, so the database still picks the candidates by index and stops at the limit.
 */
export async function searchScopeRows(
  ctx: Pick<ServerContext, 'db' | 'log'>,
  application: ApplicationRow,
  entry: DataEntry,
  text: string,
  locale: string,
  limit: number,
) {
  const model = application.model;
  const words = searchWords(text);
  const above = referencesAbove(model, entry);
  const anchors = new Map<string, string[]>(words.map((word) => [word, []]));
  if (words.length > 0 && above.length > 0) {
    const branches = [...new Set(words)].flatMap((word) => anchorsSql(application.id, above, model, locale, word));
    const found = await sql<{
      word: string;
      hierarchical_key: string;
    }>`${sql.join(branches, sql` union all `)}`.execute(ctx.db);
    for (const row of found.rows) anchors.get(row.word)!.push(row.hierarchical_key);
  }
  const overOrUnder = (word: string): RawBuilder<SqlBool> => {
    const keys = anchors.get(word)!;
    if (keys.length === 0) return sql<SqlBool>`false`;
    if (keys.length <= ANCHORS_MAX)
      return sql<SqlBool>`(${sql.join(
        keys.map((key) => sql`(hierarchical_key ~>=~ ${`${key}.`} and hierarchical_key ~<~ ${`${key}/`})`),
        sql` or `,
      )})`;
    // Too many rows above name the word: each candidate's own rows above are read by their keys instead.
    return sql<SqlBool>`exists (select 1 from data_rows a
      where a.application_id = ${sql.raw(literal(application.id))} and a.file_id is null
        and a.hierarchical_key = any(${keysAbove})
        and (${sql.join(
          above.map(
            (d) =>
              sql`a.data_name = ${sql.raw(literal(d.name))} and ${sql.raw(searchExpression(d, locale, model.defaultLanguage))} @@ ${wordQuery(word)}`,
          ),
          sql` or `,
        )}))`;
  };
  const matching: WordsCondition = (typed, vector) =>
    sql<SqlBool>`(${sql.join(
      typed.map((word) => sql`(${sql.raw(vector)} @@ ${wordQuery(word)} or ${overOrUnder(word)})`),
      sql` and `,
    )})`;
  return searchRows(ctx, { application, model, entry }, text, locale, limit, { kind: 'all' }, matching);
}
