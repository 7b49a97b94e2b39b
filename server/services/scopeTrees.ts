import { sql } from 'kysely';
import { localized } from '../../src/domain/applications/summary.ts';
import type { DataEntry } from '../../src/domain/configuration/model.ts';
import { rowDisplay } from '../../src/domain/rows/rowDisplay.ts';
import {
  SCOPE_NODES_FOUND_MAX,
  SCOPE_NODES_PAGE,
  SCOPE_TREE_WHOLE_MAX,
  type ReferenceScopes,
  type ScopeNode,
  type ScopeNodesPage,
  type ScopeNodesQuery,
} from '../../src/contract/authorizations.ts';
import type { ServerContext } from '../context.ts';
import type { ApplicationRow } from '../db/schema.ts';
import { storedCount } from './dataRows.ts';
import { isRecursive, readLevel, walkedChildren, type StoredNode } from './scopeLevels.ts';
import { searchScopeRows } from './scopeSearch.ts';

/** The rows of a small scope reference as a tree: a row's parent is the longest key that prefixes its own. */
function treeOf(rows: Array<{ hierarchical_key: string; natural_key: string; label: string }>): ScopeNode[] {
  const nodes = new Map(
    rows.map((r) => [
      r.hierarchical_key,
      { id: r.hierarchical_key, naturalKey: r.natural_key, label: r.label, children: [] as ScopeNode[] },
    ]),
  );
  const roots: ScopeNode[] = [];
  for (const node of [...nodes.values()].sort((a, b) => a.naturalKey.localeCompare(b.naturalKey))) {
    const segments = node.id.split('.');
    let parent: ScopeNode | undefined;
    for (let length = segments.length - 1; length > 0 && !parent; length--)
      parent = nodes.get(segments.slice(0, length).join('.'));
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

/**
 * How many children each node has (none outside a recursive reference), one statement for a page. Each node's
 * children are walked through the hierarchical-key index as a level is (scopeLevels.ts): from one child to the
 * first key past everything below it. A range of the index under the node held its whole subtree, every row of
 * which was read to keep the few one label longer. A row whose parent is missing is stepped over with what lies
 * under it, and not counted, as the page of children leaves it out.
 */
async function childCounts(
  ctx: ServerContext,
  application: ApplicationRow,
  entry: DataEntry,
  keys: string[],
): Promise<Map<string, number>> {
  if (!isRecursive(entry) || keys.length === 0) return new Map();
  const counted = await sql<{ key: string; count: string }>`${walkedChildren(application, entry, keys)}
    select parent as key, count(*) as count from walk
    where key is not null and strpos(substr(key, length(parent) + 2), '.') = 0 group by parent`.execute(ctx.db);
  return new Map(counted.rows.map((row) => [row.key, Number(row.count)]));
}

function labelled(application: ApplicationRow, entry: DataEntry, row: StoredNode, locale: string) {
  return rowDisplay(entry, row.values, row.natural_key, locale, application.model.defaultLanguage);
}

/** A page of nodes with their child counts and no children (the client asks them when a node is opened). */
async function pageOf(
  ctx: ServerContext,
  application: ApplicationRow,
  entry: DataEntry,
  rows: StoredNode[],
  locale: string,
) {
  const counts = await childCounts(
    ctx,
    application,
    entry,
    rows.map((r) => r.hierarchical_key),
  );
  return rows.map((row) => ({
    id: row.hierarchical_key,
    naturalKey: row.natural_key,
    label: labelled(application, entry, row, locale),
    children: [] as never[],
    childCount: counts.get(row.hierarchical_key) ?? 0,
  }));
}

/** The first level of a large tree: its first page and how many nodes it holds. */
async function firstPage(ctx: ServerContext, application: ApplicationRow, entry: DataEntry, locale: string) {
  const { rows, total } = await readLevel(ctx, application, entry, { offset: 0, limit: SCOPE_NODES_PAGE });
  return { nodes: await pageOf(ctx, application, entry, rows, locale), rootCount: total ?? 0 };
}

/**
 * Per data entry, the trees of the references that scope its rights, with row labels in `locale`: whole while a
 * reference holds at most SCOPE_TREE_WHOLE_MAX rows, else the first page of its first level with each node's
 * child count and the level's size (the rest through {@link scopeNodes}). Each reference is read once.
 */
export async function referenceScopesOf(
  ctx: ServerContext,
  application: ApplicationRow,
  locale: string,
): Promise<ReferenceScopes> {
  const model = application.model;
  const referenceScopes: ReferenceScopes = {};
  const trees = new Map<string, { nodes: ScopeNode[]; rootCount?: number }>();
  for (const entry of model.data) {
    for (const scope of entry.authorization?.scopes ?? []) {
      const target = model.data.find((d) => d.name === scope.reference)!;
      if (!trees.has(scope.reference)) {
        const size = await storedCount(ctx.db, application.id, scope.reference);
        if (size > SCOPE_TREE_WHOLE_MAX) {
          trees.set(scope.reference, await firstPage(ctx, application, target, locale));
        } else {
          const rows = await ctx.db
            .selectFrom('data_rows')
            .select(['hierarchical_key', 'natural_key', 'values'])
            .where('application_id', '=', application.id)
            .where('data_name', '=', scope.reference)
            .where('file_id', 'is', null)
            // Bounded even when the kept count lags behind a write: a tree past the limit is cut, never read whole.
            .limit(SCOPE_TREE_WHOLE_MAX * 2)
            .execute();
          trees.set(scope.reference, {
            nodes: treeOf(rows.map((r) => ({ ...r, label: labelled(application, target, r, locale) }))),
          });
        }
      }
      (referenceScopes[entry.name] ??= []).push({
        id: scope.component,
        reference: scope.reference,
        i18n: target.i18n.title,
        label: localized(target.i18n.title, locale, model.defaultLanguage, scope.reference),
        ...trees.get(scope.reference)!,
      });
    }
  }
  return referenceScopes;
}

/**
 * The labels of the rows above each key, from the top: every prefix of a key that is a row of one of the
 * application's references (a site's project too), read in one statement by their indexed keys.
 */
async function pathsOf(ctx: ServerContext, application: ApplicationRow, keys: string[], locale: string) {
  const references = application.model.data.filter((d) => d.kind === 'reference');
  // Longest names first: a name that begins another's must not claim its labels.
  const ownerOf = (label: string) =>
    [...references].sort((a, b) => b.name.length - a.name.length).find((d) => label.startsWith(`${d.name}K`));
  const wanted = new Map<string, DataEntry>();
  for (const key of keys) {
    const labels = key.split('.');
    for (let length = 1; length < labels.length; length++) {
      const owner = ownerOf(labels[length - 1]);
      if (owner) wanted.set(labels.slice(0, length).join('.'), owner);
    }
  }
  const found = new Map<string, string>();
  if (wanted.size) {
    const rows = await ctx.db
      .selectFrom('data_rows')
      .select(['data_name', 'hierarchical_key', 'natural_key', 'values'])
      .where('application_id', '=', application.id)
      .where('file_id', 'is', null)
      .where((eb) =>
        eb.or(
          [...wanted].map(([key, owner]) =>
            eb.and([eb('data_name', '=', owner.name), eb('hierarchical_key', '=', key)]),
          ),
        ),
      )
      .execute();
    for (const row of rows)
      found.set(row.hierarchical_key, labelled(application, wanted.get(row.hierarchical_key)!, row, locale));
  }
  return (key: string) => {
    const labels = key.split('.');
    return labels
      .slice(0, -1)
      .map((_, i) => found.get(labels.slice(0, i + 1).join('.')))
      .filter((label): label is string => label !== undefined);
  };
}

/**
 * A page of a large scope tree (the first level, or the children of `parent`), or a search of it by label or code
 * (`q`): what the answers that send the tree's first level leave out. The caller checks who may read it.
 */
export async function readScopeNodes(
  ctx: ServerContext,
  application: ApplicationRow,
  entry: DataEntry,
  query: ScopeNodesQuery,
  locale: string,
): Promise<ScopeNodesPage> {
  if (query.q !== undefined) {
    const found = await searchScopeRows(ctx, application, entry, query.q, locale, SCOPE_NODES_FOUND_MAX + 1);
    const shown = found.slice(0, SCOPE_NODES_FOUND_MAX);
    const counts = await childCounts(
      ctx,
      application,
      entry,
      shown.map((f) => f.hierarchicalKey),
    );
    const pathOf = await pathsOf(
      ctx,
      application,
      shown.map((f) => f.hierarchicalKey),
      locale,
    );
    return {
      nodes: shown.map((f) => ({
        id: f.hierarchicalKey,
        naturalKey: f.naturalKey,
        label: f.label,
        children: [],
        childCount: counts.get(f.hierarchicalKey) ?? 0,
        path: pathOf(f.hierarchicalKey),
      })),
      total: shown.length,
      more: found.length > SCOPE_NODES_FOUND_MAX,
    };
  }
  const { rows, total } = await readLevel(ctx, application, entry, {
    parent: query.parent,
    after: query.after,
    offset: query.offset ?? 0,
    limit: Math.min(query.limit ?? SCOPE_NODES_PAGE, SCOPE_NODES_PAGE),
  });
  return { nodes: await pageOf(ctx, application, entry, rows, locale), total, more: false };
}
