/**
 * The syntax tree as a program of a nondeterministic automaton (Thompson's construction): what the Pike VM runs
 * thread by thread and what the lazy DFA builds its states from. Counted repetitions are written out, so the
 * program's size bounds the work per character; a pattern whose program would exceed it is refused.
 */
import { anyCharacter, type CharTest } from './characters';
import { RegexSyntaxError, type Assertion, type RegexNode } from './syntax';

export type Instruction =
  | { readonly op: 'char'; readonly test: CharTest }
  /** Continue at `first` and, with a lower priority, at `second`. */
  | { readonly op: 'split'; readonly first: number; readonly second: number }
  | { readonly op: 'jump'; readonly to: number }
  /** Record the position in capture slot `slot` (2n: start of group n, 2n + 1: its end). */
  | { readonly op: 'save'; readonly slot: number }
  | { readonly op: 'assert'; readonly assertion: Assertion }
  | { readonly op: 'match' };

export type Program = readonly Instruction[];

/** Instructions a pattern may take once its repetitions are written out. */
export const MAX_PROGRAM = 10_000;

const INPUT_END: Instruction = { op: 'assert', assertion: { kind: 'inputEnd' } };

class ProgramBuilder {
  readonly code: Instruction[] = [];

  emit(instruction: Instruction): number {
    if (this.code.length >= MAX_PROGRAM) {
      throw new RegexSyntaxError(
        `The pattern is too large once its repetitions are written out (more than ${MAX_PROGRAM.toLocaleString('en')} steps)`,
        0,
      );
    }
    this.code.push(instruction);
    return this.code.length - 1;
  }

  /** A placeholder for a jump or split whose targets are known later. */
  private hole(): number {
    return this.emit({ op: 'jump', to: -1 });
  }

  compile(node: RegexNode): void {
    switch (node.kind) {
      case 'char':
        this.emit({ op: 'char', test: node.test });
        return;
      case 'assertion':
        this.emit({ op: 'assert', assertion: node.assertion });
        return;
      case 'sequence':
        for (const item of node.items) this.compile(item);
        return;
      case 'group':
        if (node.capture !== null) this.emit({ op: 'save', slot: node.capture * 2 });
        this.compile(node.body);
        if (node.capture !== null) this.emit({ op: 'save', slot: node.capture * 2 + 1 });
        return;
      case 'alternation': {
        const exits: number[] = [];
        node.options.forEach((option, index) => {
          if (index === node.options.length - 1) {
            this.compile(option);
            return;
          }
          const split = this.hole();
          this.compile(option);
          exits.push(this.hole());
          this.code[split] = { op: 'split', first: split + 1, second: this.code.length };
        });
        for (const exit of exits) this.code[exit] = { op: 'jump', to: this.code.length };
        return;
      }
      case 'repeat':
        this.repeat(node.body, node.min, node.max, node.greedy);
        return;
    }
  }

  private branch(at: number, body: number, exit: number, greedy: boolean): void {
    this.code[at] = greedy ? { op: 'split', first: body, second: exit } : { op: 'split', first: exit, second: body };
  }

  private repeat(body: RegexNode, min: number, max: number, greedy: boolean): void {
    for (let k = 0; k < min; k += 1) {
      const before = this.code.length;
      this.compile(body);
      // A body without instructions (`(?:)`) matches the empty text however often: `(?:){99999999}` is one copy.
      if (this.code.length === before) return;
    }
    if (max === Infinity) {
      const loop = this.hole();
      this.compile(body);
      this.emit({ op: 'jump', to: loop });
      this.branch(loop, loop + 1, this.code.length, greedy);
      return;
    }
    const splits: number[] = [];
    for (let k = min; k < max; k += 1) {
      splits.push(this.hole());
      this.compile(body);
    }
    for (const split of splits) this.branch(split, split + 1, this.code.length, greedy);
  }
}

/** A program that matches the whole text (Java's `Matcher.matches()`), recording group 0 in slots 0 and 1. */
export function wholeTextProgram(node: RegexNode): Program {
  const builder = new ProgramBuilder();
  builder.emit({ op: 'save', slot: 0 });
  builder.compile(node);
  builder.emit({ op: 'save', slot: 1 });
  builder.emit(INPUT_END);
  builder.emit({ op: 'match' });
  return builder.code;
}

/** A program that finds the leftmost match (Java's `Matcher.find()`): a lazy `.*?` in front of the pattern. */
export function searchProgram(node: RegexNode): Program {
  const builder = new ProgramBuilder();
  // Threads that start earlier keep priority, so the leftmost match wins.
  builder.emit({ op: 'split', first: 3, second: 1 });
  builder.emit({ op: 'char', test: anyCharacter });
  builder.emit({ op: 'jump', to: 0 });
  builder.emit({ op: 'save', slot: 0 });
  builder.compile(node);
  builder.emit({ op: 'save', slot: 1 });
  builder.emit({ op: 'match' });
  return builder.code;
}

/** Whether a character can be consumed after `pc` (following jumps, splits, saves and assertions). */
function consumesAfter(program: Program, pc: number): boolean {
  const seen = new Uint8Array(program.length);
  const pending = [pc];
  while (pending.length > 0) {
    const at = pending.pop()!;
    if (seen[at]) continue;
    seen[at] = 1;
    const instruction = program[at];
    if (instruction.op === 'char') return true;
    if (instruction.op === 'jump') pending.push(instruction.to);
    else if (instruction.op === 'split') pending.push(instruction.first, instruction.second);
    else if (instruction.op !== 'match') pending.push(at + 1);
  }
  return false;
}

/**
 * The whole-text program for the lazy DFA, whose states know only whether they are at the start and, at the end,
 * that the text ended: `^`, `\A`, `\G` and `\z` need nothing else. `$` and `\Z` followed by nothing that consumes
 * a character mean the end of the text in a whole-text match (before a final line break, the match would still
 * have to reach the end), so they become `\z`. Null when other assertions remain (`\b`, multiline `^` or `$` inside
 * the pattern): the Pike VM, which sees the text around each position, runs those.
 */
export function dfaProgram(whole: Program): Program | null {
  const program: Instruction[] = [];
  for (let pc = 0; pc < whole.length; pc += 1) {
    const instruction = whole[pc];
    if (instruction.op !== 'assert') {
      program.push(instruction);
      continue;
    }
    const kind = instruction.assertion.kind;
    if (kind === 'inputStart' || kind === 'searchStart' || kind === 'inputEnd') program.push(instruction);
    else if (kind === 'lineEnd' && !consumesAfter(whole, pc + 1)) program.push(INPUT_END);
    else return null;
  }
  return program;
}

/** The text a pattern stands for when it is only literal characters (outside any capturing group), else null. */
export function literalText(node: RegexNode): string | null {
  if (node.kind === 'char') return node.literal === undefined ? null : String.fromCodePoint(node.literal);
  if (node.kind !== 'sequence') return null;
  let text = '';
  for (const item of node.items) {
    const part = literalText(item);
    if (part === null) return null;
    text += part;
  }
  return text;
}

/** The literal characters every match starts with (used to skip ahead when searching). */
export function literalPrefix(node: RegexNode): string {
  if (node.kind === 'char') return node.literal === undefined ? '' : String.fromCodePoint(node.literal);
  if (node.kind === 'group') return literalPrefix(node.body);
  if (node.kind !== 'sequence') return '';
  let prefix = '';
  for (const item of node.items) {
    const part = literalText(item);
    if (part === null) return prefix + literalPrefix(item);
    prefix += part;
  }
  return prefix;
}
