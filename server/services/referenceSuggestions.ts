import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { ApplicationModel, DataEntry } from '../../src/domain/configuration/model.ts';
import { displayTemplate, rowDisplay } from '../../src/domain/rows/rowDisplay.ts';
import { KEY_SEPARATOR, NULL_KEY } from '../../src/domain/keys/index.ts';
import { SEARCH_FOLD_FROM, SEARCH_FOLD_TO, foldForSearch, searchWords } from '../../src/domain/text/searchFold.ts';
import type { RowFilter } from '../../src/domain/rights/access.ts';
import type { Suggestion } from '../../src/contract/references.ts';
import type { ServerContext } from '../context.ts';
import { storedCount } from './dataRows.ts';
import { INDEXED_FROM_ROWS, INDEXED_TEXT_LENGTH, indexSearchText, literal } from './filterIndexes.ts';
import { rowFilterSql } from './rowQueries.ts';
import type { EntryContext } from './references.ts';

/**
 * Matches are read at most this many before they are ordered: a search of one letter in a million rows would
 * otherwise sort most of them. The best of these (labels beginning with the search first) are answered.
 */
const CANDIDATES = 200;

/** A text as a POSIX regular expression matching it literally. */
const regexLiteral = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The SQL text of one part of a display pattern, as `rowDisplay` writes it. A reference is stored by its
 * hierarchical key (`parentKp1.sitesKNULL_KEY__nivelle`) and shown by the natural key of the row it names, without
 * empty leading parts (`nivelle`): its last label, without the `<reference>K` marker and the `NULL_KEY__`s. Lists
 * and dates are searched in their stored text (a list's JSON, a date's ISO form): their words are there, in
 * another form than the label's.
 */
function partSql(entry: DataEntry, part: { text: string } | { component: string }): string {
  if ('text' in part) return literal(part.text);
  const stored = `values -> ${literal(part.component)}`;
  const value = `coalesce(values ->> ${literal(part.component)}, '')`;
  const checker = entry.components.find((c) => c.key === part.component)?.checker;
  if (checker?.kind !== 'reference') return value;
  const shown = `regexp_replace(substring(${value} from '[^.]*$'), ${literal(`^(${regexLiteral(`${checker.reference}K`)})?(${NULL_KEY}${KEY_SEPARATOR})*`)}, '')`;
  return `(case jsonb_typeof(${stored}) when 'string' then ${shown} else ${value} end)`;
}

/** The folding of searchFold.ts in SQL, character for character. */
const folded = (text: string) => `translate(${text}, ${literal(SEARCH_FOLD_FROM)}, ${literal(SEARCH_FOLD_TO)})`;

/** A row's display label in a language as SQL text (with the same choice of pattern as rowDisplay.ts), folded. */
export function labelExpression(entry: DataEntry, locale: string, defaultLanguage: string): string {
  const template = displayTemplate(entry, locale, defaultLanguage);
  return folded(template ? template.parts.map((part) => partSql(entry, part)).join(' || ') : 'natural_key');
}

/**
 * What suggestions search in a language, as an SQL expression on a row of `data_rows`: the words of its display
 * label in that language and of its natural key, folded, as a text-search vector of the `simple` configuration
 * (no stemming, no stop words, every word kept as it is). Written the same way every time, so that the planner
 * finds it in the index.
 */
export function searchExpression(entry: DataEntry, locale: string, defaultLanguage: string): string {
  return `to_tsvector('simple'::regconfig, left(${labelExpression(entry, locale, defaultLanguage)}, ${SEARCHED_LABEL_LENGTH}) || ' ' || ${folded('natural_key')})`;
}

/**
 * Characters of a label whose words are searched: a text-search vector holds at most a megabyte, and a label of
 * megabytes failed the write of its row once the words were indexed.
 */
const SEARCHED_LABEL_LENGTH = 100_000;

/**
 * The beginning of a row's label as the B-tree of labels holds it (its entries hold at most about 2,700 bytes: a
 * longer label indexed whole failed the write of its row).
 */
export function beginningExpression(entry: DataEntry, locale: string, defaultLanguage: string): string {
  return `left(${labelExpression(entry, locale, defaultLanguage)}, ${INDEXED_TEXT_LENGTH})`;
}

/** The languages whose labels are indexed by a load, before anyone searches: the interface's. */
const INDEXED_LANGUAGES = ['fr', 'en'];

/**
 * Asks for the indexes the suggestions of a reference read, for the labels of each interface language and of the
 * application's own (one pair per distinct display pattern), built one after the other in the background.
 * Resolves once they are built. Only for a reference some column points to: the filters of such columns are the
 * ones that suggest, and every index costs the entry's writes.
 */
export function indexSuggestions(
  ctx: Pick<ServerContext, 'db' | 'log'>,
  applicationId: string,
  model: ApplicationModel,
  entry: DataEntry,
): Promise<void> {
  const pointedTo = model.data.some((other) =>
    other.components.some((c) => c.checker?.kind === 'reference' && c.checker.reference === entry.name),
  );
  if (!pointedTo) return Promise.resolve();
  const builds = [...new Set([...INDEXED_LANGUAGES, model.defaultLanguage])].flatMap((locale) => [
    indexSearchText(
      ctx.db,
      applicationId,
      entry.name,
      beginningExpression(entry, locale, model.defaultLanguage),
      'beginning',
      ctx.log,
    ),
    indexSearchText(
      ctx.db,
      applicationId,
      entry.name,
      searchExpression(entry, locale, model.defaultLanguage),
      'words',
      ctx.log,
    ),
  ]);
  return Promise.all(builds).then(() => undefined);
}

/**
 * The text-search query of the words typed: each must begin a word of the row's text (`word:*`), all of them
 * (`&`). Words hold no punctuation once folded, so none can be read as an operator of the query's syntax.
 */
function searchQuery(words: string[]): string {
  return words.map((word) => `'${word}':*`).join(' & ');
}

/**
 * Rows of a reference whose display label (in `locale`) or natural key has words beginning with the words of
 * `text`, as {naturalKey, label}: the rows the caller may read only (`filter`). Labels beginning with the search
 * come first, then the others, each in the order of their labels. On an entry large enough, the search is served
 * by indexes built when a load made it so (`indexSuggestions`).
 */
export async function suggestRows(
  ctx: Pick<ServerContext, 'db' | 'log'>,
  reference: EntryContext,
  text: string,
  locale: string,
  limit: number,
  filter: RowFilter,
): Promise<Suggestion[]> {
  const found = await searchRows(ctx, reference, text, locale, limit, filter);
  return found.map(({ naturalKey, label }) => ({ naturalKey, label }));
}

/**
 * How the rows found match the words typed, as an SQL condition on a row of `data_rows` given the words and the
 * row's search vector (written as the index has it). By default every word begins a word of the row's own text.
 */
export type WordsCondition = (words: string[], vector: string) => RawBuilder<SqlBool>;

/** One word of a search as a text-search query: a word of the text begins with it. */
export const wordQuery = (word: string) => sql`to_tsquery('simple'::regconfig, ${searchQuery([word])})`;

const ownWords: WordsCondition = (words, vector) =>
  sql<SqlBool>`${sql.raw(vector)} @@ to_tsquery('simple'::regconfig, ${searchQuery(words)})`;

/** The rows {@link suggestRows} answers, with their hierarchical keys (a scope tree's search places them). */
export async function searchRows(
  ctx: Pick<ServerContext, 'db' | 'log'>,
  reference: EntryContext,
  text: string,
  locale: string,
  limit: number,
  filter: RowFilter,
  matching: WordsCondition = ownWords,
): Promise<Array<Suggestion & { hierarchicalKey: string }>> {
  const { application, model, entry } = reference;
  const words = searchWords(text);
  if (words.length === 0 || filter.kind === 'none') return [];
  const label = labelExpression(entry, locale, model.defaultLanguage);
  const labelBeginning = beginningExpression(entry, locale, model.defaultLanguage);
  const vector = searchExpression(entry, locale, model.defaultLanguage);
  // Asked after the loads that made the entry large; asked here too for a language no load asked for, or for an
  // entry loaded before this server started.
  if ((await storedCount(ctx.db, application.id, entry.name)) >= INDEXED_FROM_ROWS) {
    void indexSearchText(ctx.db, application.id, entry.name, labelBeginning, 'beginning', ctx.log);
    void indexSearchText(ctx.db, application.id, entry.name, vector, 'words', ctx.log);
  }
  // The entry is named by literals, as in the indexes' own condition: a parameter would hide from the planner that
  // the partial index covers the rows asked for. So is the beginning searched: a `like` pattern must be known when
  // the query is planned for a B-tree to serve it. Folded words hold neither `%`, `_`, quotes nor backslashes.
  const rows = sql`application_id = ${sql.raw(literal(application.id))} and data_name = ${sql.raw(literal(entry.name))}`;
  const rights: RawBuilder<SqlBool> =
    filter.kind === 'all' ? sql<SqlBool>`true` : (rowFilterSql(entry, filter) as RawBuilder<SqlBool>);
  const beginning = words.join(' ');
  // Labels beginning with the search first, by a range of the B-tree: the answer is often there already, and a
  // search whose words are common (one letter, "lac") stops at the limit instead of reading every match. No `order
  // by`: under a database collation other than C the index's order (text_pattern_ops) is not the text's, and asking
  // for that order made PostgreSQL sort every row of the entry instead (800 ms on a million rows).
  // Through the index's beginning of the labels; then whole, for a search longer than that beginning.
  const indexedBeginning = Array.from(beginning).slice(0, INDEXED_TEXT_LENGTH).join('');
  const longer =
    indexedBeginning === beginning ? sql`` : sql` and ${sql.raw(label)} like ${sql.raw(literal(`${beginning}%`))}`;
  const first = await sql<Found>`
    select natural_key, hierarchical_key, values from data_rows
    where ${rows} and ${sql.raw(labelBeginning)} like ${sql.raw(literal(`${indexedBeginning}%`))}${longer} and ${rights}
    limit ${limit}`.execute(ctx.db);
  const found = new Map(first.rows.map((row) => [row.natural_key, row]));
  if (found.size < limit) {
    const others = await sql<Found>`
      select natural_key, hierarchical_key, values from data_rows
      where ${rows} and ${matching(words, vector)} and ${rights}
      limit ${CANDIDATES}`.execute(ctx.db);
    for (const row of others.rows) if (!found.has(row.natural_key)) found.set(row.natural_key, row);
  }
  const labelled = [...found.values()].map((row) => {
    const shown = rowDisplay(entry, row.values, row.natural_key, locale, model.defaultLanguage);
    return {
      naturalKey: row.natural_key,
      hierarchicalKey: row.hierarchical_key,
      label: shown,
      first: foldForSearch(shown).startsWith(beginning) ? 0 : 1,
    };
  });
  labelled.sort(
    (a, b) => a.first - b.first || a.label.localeCompare(b.label, locale) || (a.naturalKey < b.naturalKey ? -1 : 1),
  );
  return labelled
    .slice(0, limit)
    .map((row) => ({ naturalKey: row.naturalKey, hierarchicalKey: row.hierarchicalKey, label: row.label }));
}

type Found = { natural_key: string; hierarchical_key: string; values: Record<string, unknown> };
