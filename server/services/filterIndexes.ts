import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Schema } from '../db/schema.ts';

/**
 * What an interval filter compares, and so what its index holds: a JSON value (numbers), the ISO part of a stored
 * date, or the text of any other value. Each must read exactly as the filter's condition in rowQueries.ts does,
 * or the planner will not use the index.
 */
export type FilteredExpression = 'json' | 'date' | 'text';

export interface FilteredComponent {
  component: string;
  expression: FilteredExpression;
}

/**
 * Characters of a text an index holds: an entry of a B-tree holds at most about 2,700 bytes, and a longer value
 * indexed whole failed the write of its row (a label or a note of a few thousand characters). Text intervals are
 * compared on this beginning first, through the index, then whole.
 */
export const INDEXED_TEXT_LENGTH = 200;

/** Entries smaller than this are scanned faster than an index would be worth keeping up at every write. */
export const INDEXED_FROM_ROWS = 5_000;

export const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

function indexedExpression({ component, expression }: FilteredComponent): string {
  if (expression === 'json') return `values -> ${literal(component)}`;
  if (expression === 'date') return `substr(values ->> ${literal(component)}, 6, 19)`;
  return `left(values ->> ${literal(component)}, ${INDEXED_TEXT_LENGTH}) collate "C"`;
}

/** The index's name: from what it covers, so every instance names it alike and builds it once. */
export function filterIndexName(applicationId: string, entryName: string, filtered: FilteredComponent): string {
  const hash = createHash('sha256')
    .update(JSON.stringify([applicationId, entryName, filtered.component, filtered.expression]))
    .digest('hex');
  return `data_rows_filter_${hash.slice(0, 24)}`;
}

/** Indexes asked for in this process, by name, and the end of their build: each is built (or found built) once. */
const asked = new Map<string, Promise<void>>();
/** Builds run one after the other: two concurrent builds on one table wait for each other's transaction and deadlock. */
let building: Promise<void> = Promise.resolve();
/** Another instance building on the same table at the same moment can still deadlock with this one: tried again. */
const ATTEMPTS = 3;
const RETRY_AFTER_MS = 1_000;

async function build(
  db: Kysely<Schema>,
  name: string,
  definition: string,
  what: string,
  log: (line: string) => void,
): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await sql.raw(`create index concurrently if not exists ${name} on data_rows ${definition}`).execute(db);
      // An index of an expression has statistics of its own, gathered by ANALYZE only: until then the planner
      // guesses how many rows a condition on it keeps, and may walk another index instead (a fraction of a second).
      await sql`analyze data_rows`.execute(db);
      return;
    } catch (error) {
      // A failed concurrent build leaves an invalid index that `if not exists` would then take for a built one.
      await sql
        .raw(`drop index concurrently if exists ${name}`)
        .execute(db)
        .catch(() => undefined);
      const deadlock = (error as { code?: string }).code === '40P01';
      if (!deadlock || attempt === ATTEMPTS) {
        log(`index of ${what} for filters not built: ${error instanceof Error ? error.message : String(error)}`);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, RETRY_AFTER_MS));
    }
  }
}

/**
 * Makes sure the components an entry is filtered on have an index, built in the background: the component values
 * are keys inside the JSONB `values`, different for every entry, so no index made in advance can serve them. Only
 * what users actually filter, on entries large enough to need it, gets one (each index costs every later write of
 * its entry). A partial index per application and entry: other entries' rows are not in it. Built concurrently,
 * so writes to the entry go on meanwhile; a build that fails is not tried again before the next start.
 */
export function indexFilteredComponents(
  db: Kysely<Schema>,
  applicationId: string,
  entryName: string,
  filtered: readonly FilteredComponent[],
  log: (line: string) => void,
): void {
  for (const component of filtered) {
    const name = filterIndexName(applicationId, entryName, component);
    const definition = `((${indexedExpression(component)})) ${partOf(applicationId, entryName)}`;
    void ensureIndex(db, name, definition, `${entryName}.${component.component}`, log);
  }
}

/** The rows of one entry: every index here is partial, other entries' rows are not in it. */
const partOf = (applicationId: string, entryName: string) =>
  `where application_id = ${literal(applicationId)} and data_name = ${literal(entryName)}`;

/**
 * Builds (once per process, one build at a time) an index of `data_rows`, unless it exists; resolves once it is
 * built or given up.
 */
function ensureIndex(
  db: Kysely<Schema>,
  name: string,
  definition: string,
  what: string,
  log: (line: string) => void,
): Promise<void> {
  const known = asked.get(name);
  if (known) return known;
  building = building.then(() => build(db, name, definition, what, log));
  asked.set(name, building);
  return building;
}

/** The name of an index of an entry's searched text (see referenceSuggestions.ts): its words, or its beginning. */
export function searchIndexName(
  applicationId: string,
  entryName: string,
  expression: string,
  kind: SearchIndexKind = 'words',
): string {
  const hash = createHash('sha256')
    .update(JSON.stringify(['search', applicationId, entryName, expression, kind]))
    .digest('hex');
  return `data_rows_search_${hash.slice(0, 24)}`;
}

/** A GIN index of a text-search vector (words beginning so), or a B-tree for `like 'text%'` (labels beginning so). */
export type SearchIndexKind = 'words' | 'beginning';

/**
 * Makes sure an entry has an index of an expression of its rows that searches read (the words of their display
 * labels, or their folded labels), built in the background like the filters' indexes and for the same reasons: the
 * expression depends on the entry's display pattern, so no index made in advance can serve it. Resolves once built.
 */
export function indexSearchText(
  db: Kysely<Schema>,
  applicationId: string,
  entryName: string,
  expression: string,
  kind: SearchIndexKind,
  log: (line: string) => void,
): Promise<void> {
  const name = searchIndexName(applicationId, entryName, expression, kind);
  const indexed = kind === 'words' ? `using gin ((${expression}))` : `((${expression}) text_pattern_ops)`;
  return ensureIndex(db, name, `${indexed} ${partOf(applicationId, entryName)}`, `${entryName} search (${kind})`, log);
}

/** Waits for the indexes asked for so far to be built (or given up): for benches and tests that time queries. */
export function indexesBuilt(): Promise<void> {
  return building;
}
