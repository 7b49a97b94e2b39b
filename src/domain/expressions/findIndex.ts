/**
 * O(1) answers for `list.find { it.field == key }` and `list.findAll { … }` over reference lists. The compiler
 * recognises a closure that only compares one field of its parameter with a value that does not depend on the
 * parameter; the evaluator then asks this module, which keeps, per list and per field, an index from the field's
 * text to the positions holding it. Reference lists are the same objects for every row, so the index is built once
 * (on the second look-up, so a list used once never pays for it) and each row costs one map look-up.
 *
 * The index only answers when it is certain to agree with the plain evaluation: every element's field must read
 * without error and hold a string or null. Otherwise the caller evaluates the closure element by element.
 */
import { getAt, getProperty } from './access';
import { ExpressionError } from './errors';
import { invokeMethod } from './gdkMethods';
import { GString } from './groovyValues';
import type { Runtime } from './runtime';

/** One step from the closure parameter to the compared field: `.name`, `.getName()`, `.get('name')`, `['name']`. */
export type PathStep =
  | { readonly kind: 'property'; readonly name: string; readonly safe: boolean }
  | { readonly kind: 'method'; readonly name: string; readonly args: readonly string[]; readonly safe: boolean }
  | { readonly kind: 'index'; readonly key: string };

export interface LookupPlan {
  readonly path: readonly PathStep[];
  /** `==` (Groovy equality) or `.equals(…)` (Java equality: a GString never equals a String). */
  readonly equality: 'groovy' | 'java';
  /** Identifies path and equality, to share one index between expressions that compare the same field. */
  readonly signature: string;
}

export interface FieldIndex {
  readonly byText: ReadonlyMap<string, readonly number[]>;
  readonly nulls: readonly number[];
}

interface IndexSlot {
  uses: number;
  index: FieldIndex | 'unusable' | null;
}

/** Below this size a plain scan is as fast as the index. */
const MIN_INDEXED_LENGTH = 8;

const indexes = new WeakMap<readonly unknown[], Map<string, IndexSlot>>();

export function planSignature(path: readonly PathStep[], equality: 'groovy' | 'java'): string {
  return equality + ':' + JSON.stringify(path);
}

/** Reads the field of one element exactly as the closure would (same property, method and index rules). */
function readPath(rt: Runtime, element: unknown, path: readonly PathStep[]): unknown {
  let value = element;
  for (const step of path) {
    if ((value === null || value === undefined) && step.kind !== 'index' && step.safe) return null;
    if (step.kind === 'property') value = getProperty(value, step.name);
    else if (step.kind === 'method') value = invokeMethod(rt, value, step.name, step.args);
    else value = getAt(value, step.key);
  }
  return value;
}

function buildIndex(rt: Runtime, list: readonly unknown[], plan: LookupPlan): FieldIndex | 'unusable' {
  const byText = new Map<string, number[]>();
  const nulls: number[] = [];
  rt.tick(list.length);
  for (let position = 0; position < list.length; position++) {
    let value: unknown;
    try {
      value = readPath(rt, list[position], plan.path);
    } catch (error) {
      if (error instanceof ExpressionError) return 'unusable';
      throw error;
    }
    if (value === null || value === undefined) nulls.push(position);
    else if (typeof value === 'string') {
      const positions = byText.get(value);
      if (positions) positions.push(position);
      else byText.set(value, [position]);
    } else return 'unusable';
  }
  return { byText, nulls };
}

/** Positions whose field equals `key`. Fields are strings or null here, and only a text equals a string. */
function matchingPositions(index: FieldIndex, key: unknown, equality: 'groovy' | 'java'): readonly number[] {
  if (key === null || key === undefined) return index.nulls;
  if (typeof key === 'string') return index.byText.get(key) ?? [];
  // A GString equals a String under == but never under equals().
  if (key instanceof GString && equality === 'groovy') return index.byText.get(key.text) ?? [];
  return [];
}

/**
 * The index of `list` for the plan's field, or undefined when the caller must run the closure: the list is short,
 * searched for the first time, or holds fields that are not all strings or null.
 */
export function usableIndex(rt: Runtime, list: readonly unknown[], plan: LookupPlan): FieldIndex | undefined {
  if (list.length < MIN_INDEXED_LENGTH) return undefined;
  let slots = indexes.get(list);
  if (!slots) {
    slots = new Map();
    indexes.set(list, slots);
  }
  let slot = slots.get(plan.signature);
  if (!slot) {
    slot = { uses: 0, index: null };
    slots.set(plan.signature, slot);
  }
  slot.uses++;
  if (slot.index === null) {
    if (slot.uses < 2) return undefined;
    slot.index = buildIndex(rt, list, plan);
  }
  return slot.index === 'unusable' ? undefined : slot.index;
}

/** What `list.find`/`list.findAll` with the planned closure gives for `key`, read from the index. */
export function answerFromIndex(
  rt: Runtime,
  list: readonly unknown[],
  index: FieldIndex,
  equality: 'groovy' | 'java',
  method: 'find' | 'findAll',
  key: unknown,
): unknown {
  const positions = matchingPositions(index, key, equality);
  rt.tick();
  if (method === 'find') return positions.length > 0 ? list[positions[0]] : null;
  rt.checkSize(positions.length);
  return positions.map((position) => list[position]);
}
