/**
 * Terrain's one engine for Java regular expressions: checker patterns, header and file-name patterns, expressions
 * (`==~`, `=~`, `matches`, `split`, `replaceAll`) and file filters. It reads Java's syntax and runs in time
 * proportional to text × pattern, whatever the pattern: whole-text checks on a lazily built DFA, searches and
 * groups on a Pike VM, literal patterns as plain string comparisons. What would need backtracking is refused when
 * the pattern is compiled. No import outside this folder: the expression engine, which may import nothing else,
 * uses it too.
 */
import { LazyDfa } from './lazyDfa';
import { parseJavaRegex } from './parse';
import { runPikeVm, type Tick } from './pikeVm';
import { dfaProgram, literalPrefix, literalText, searchProgram, wholeTextProgram, type Program } from './program';
import { RegexSyntaxError } from './syntax';

export type { Tick } from './pikeVm';

/** A pattern as a configuration model keeps it (plain data, stored as JSON). */
export interface JavaRegex {
  /** As written in the configuration. */
  readonly source: string;
  /** Capturing groups (qualifiers of pattern components and file-name scopes are numbered by them). */
  readonly groupCount: number;
}

/** A compiled pattern. `tick`, when given, is told the steps taken and may throw to stop a match. */
export interface CompiledRegex extends JavaRegex {
  readonly groupNames: ReadonlyMap<string, number>;
  /** Whether the whole text matches (Java's `Matcher.matches()`). */
  matches(text: string, tick?: Tick): boolean;
  /** The groups of a whole-text match (0: the text; undefined: a group that took no part), or null. */
  matchGroups(text: string, tick?: Tick): Array<string | undefined> | null;
  /** The first match at or after `from` (Java's `Matcher.find(from)`): start and end of each group, -1 when absent. */
  find(text: string, from: number, tick?: Tick): number[] | null;
}

export type RegexCompilation = { ok: true; regex: CompiledRegex } | { ok: false; message: string; index: number };

class Regex implements CompiledRegex {
  private readonly slotCount: number;
  private readonly literal: string | null;
  private readonly prefix: string;
  private readonly usesSearchStart: boolean;
  private dfa: LazyDfa | null | undefined;

  constructor(
    readonly source: string,
    readonly groupCount: number,
    readonly groupNames: ReadonlyMap<string, number>,
    private readonly whole: Program,
    private readonly search: Program,
    literal: string | null,
    prefix: string,
  ) {
    this.slotCount = (groupCount + 1) * 2;
    this.literal = groupCount === 0 ? literal : null;
    this.prefix = prefix;
    this.usesSearchStart = search.some(
      (instruction) => instruction.op === 'assert' && instruction.assertion.kind === 'searchStart',
    );
  }

  matches(text: string, tick?: Tick): boolean {
    if (this.literal !== null) {
      tick?.(text.length + 1);
      return text === this.literal;
    }
    // Built at the first whole-text match: patterns used only to search never pay for it.
    if (this.dfa === undefined) {
      const program = dfaProgram(this.whole);
      this.dfa = program && new LazyDfa(program);
    }
    if (this.dfa) return this.dfa.matches(text, tick);
    return runPikeVm(this.whole, this.slotCount, text, 0, tick) !== null;
  }

  matchGroups(text: string, tick?: Tick): Array<string | undefined> | null {
    const slots = runPikeVm(this.whole, this.slotCount, text, 0, tick);
    if (!slots) return null;
    const groups: Array<string | undefined> = [];
    for (let group = 0; group <= this.groupCount; group += 1) {
      const [start, end] = [slots[group * 2], slots[group * 2 + 1]];
      groups.push(start >= 0 && end >= 0 ? text.slice(start, end) : undefined);
    }
    return groups;
  }

  find(text: string, from: number, tick?: Tick): number[] | null {
    if (this.literal !== null) {
      tick?.(text.length - from + 1);
      const at = text.indexOf(this.literal, from);
      return at < 0 ? null : [at, at + this.literal.length];
    }
    let start = from;
    // No match starts before the pattern's literal beginning; `\G` holds only where the search began.
    if (this.prefix !== '' && !this.usesSearchStart) {
      start = text.indexOf(this.prefix, from);
      if (start < 0) return null;
    }
    return runPikeVm(this.search, this.slotCount, text, start, tick);
  }
}

function compile(source: string): RegexCompilation {
  try {
    const parsed = parseJavaRegex(source);
    const regex = new Regex(
      source,
      parsed.groupCount,
      parsed.groupNames,
      wholeTextProgram(parsed.node),
      searchProgram(parsed.node),
      literalText(parsed.node),
      literalPrefix(parsed.node),
    );
    return { ok: true, regex };
  } catch (thrown) {
    if (thrown instanceof RegexSyntaxError) return { ok: false, message: thrown.message, index: thrown.index };
    throw thrown;
  }
}

/** Compilations kept (their DFAs stay warm); the oldest goes first. */
const MAX_CACHE = 256;
const cache = new Map<string, RegexCompilation>();

/** Compiles a Java regular expression; the same source gives the same compiled pattern while it is kept. */
export function compileJavaRegex(source: string): RegexCompilation {
  let compiled = cache.get(source);
  if (compiled === undefined) {
    compiled = compile(source);
    if (cache.size >= MAX_CACHE) cache.delete(cache.keys().next().value as string);
    cache.set(source, compiled);
  }
  return compiled;
}

/**
 * The compiled pattern of a model's regular expression. A model stored before a rule of the engine changed may
 * hold a pattern it now refuses (a back-reference, say): such a pattern matches no text, so every value it checks
 * is reported with the pattern, until the configuration is sent again and its error shown.
 */
export function runnableRegex(regex: JavaRegex): CompiledRegex {
  const compiled = compileJavaRegex(regex.source);
  return compiled.ok
    ? compiled.regex
    : { ...regex, groupNames: new Map(), matches: () => false, matchGroups: () => null, find: () => null };
}
