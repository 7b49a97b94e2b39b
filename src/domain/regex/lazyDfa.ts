/**
 * Whole-text matching by a DFA built while it runs (subset construction on demand): a state is the set of program
 * instructions where threads wait, and its transition on a character is computed the first time that character
 * comes, then read from a table (Latin-1, which holds French accented letters) or a map. Once warm, a cell costs one table read per character, which is
 * what checking every cell of a million-row file needs; building a transition costs at most the program's size, so
 * a match never costs more than text × program. When a pattern makes too many states (they can grow exponentially
 * with the program), the cache is emptied and rebuilt from the current state: slower, never unbounded.
 */
import type { Program } from './program';
import type { Tick } from './pikeVm';

/** Transitions read from the table: a state id, or UNKNOWN when not computed yet. */
const TABLE_WIDTH = 256;
const UNKNOWN = -1;
const DEAD = 0;
const START = 1;
const MAX_STATES = 1_000;
const MAX_OTHER_TRANSITIONS = 10_000;

export class LazyDfa {
  /** `state × 256 + character` → target, for Latin-1 characters. */
  private table = new Int32Array(0);
  /** Per state: the waiting instructions (sorted), whether the text may end there, and other transitions. */
  private waiting: number[][] = [];
  private accepting: boolean[] = [];
  private others: Array<Map<number, number> | undefined> = [];
  private readonly ids = new Map<string, number>();
  private otherCount = 0;
  private readonly marks: Int32Array;
  private generation = 0;

  constructor(private readonly program: Program) {
    this.marks = new Int32Array(program.length);
    this.reset();
  }

  /** Whether the whole text matches; `tick` is told one step per character and the work of new states. */
  matches(text: string, tick?: Tick): boolean {
    tick?.(text.length + 1);
    const length = text.length;
    let table = this.table;
    let state = START;
    for (let at = 0; at < length; at += 1) {
      let c = text.charCodeAt(at);
      let next: number;
      if (c < TABLE_WIDTH) {
        next = table[(state << 8) | c];
      } else {
        if (c >= 0xd800 && c <= 0xdbff && at + 1 < length) {
          const low = text.charCodeAt(at + 1);
          if (low >= 0xdc00 && low <= 0xdfff) {
            c = (c - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
            at += 1;
          }
        }
        next = this.others[state]?.get(c) ?? UNKNOWN;
      }
      if (next <= DEAD) {
        if (next === DEAD) return false;
        next = this.transition(state, c, tick);
        if (next === DEAD) return false;
        // The table may have grown or been emptied.
        table = this.table;
      }
      state = next;
    }
    return this.accepting[state];
  }

  private reset(): void {
    this.table = new Int32Array(TABLE_WIDTH * 16).fill(UNKNOWN);
    this.waiting = [];
    this.accepting = [];
    this.others = [];
    this.ids.clear();
    this.otherCount = 0;
    this.add([], false);
    // The start state is the only one at position 0, where `^`, `\A` and `\G` hold: it is kept out of `ids`.
    this.add(this.follow([0], true, false), true);
  }

  private transition(from: number, c: number, tick: Tick | undefined): number {
    let state = from;
    if (this.waiting.length >= MAX_STATES || this.otherCount >= MAX_OTHER_TRANSITIONS) {
      const waiting = this.waiting[state];
      this.reset();
      if (state !== START) state = this.intern(waiting);
    }
    const seeds: number[] = [];
    for (const pc of this.waiting[state]) {
      const instruction = this.program[pc];
      if (instruction.op === 'char' && instruction.test(c)) seeds.push(pc + 1);
    }
    tick?.(this.waiting[state].length + seeds.length);
    const target = seeds.length === 0 ? DEAD : this.intern(this.follow(seeds, false, false));
    if (c < TABLE_WIDTH) {
      this.table[(state << 8) | c] = target;
    } else {
      let others = this.others[state];
      if (!others) this.others[state] = others = new Map();
      others.set(c, target);
      this.otherCount += 1;
    }
    return target;
  }

  private intern(waiting: number[]): number {
    if (waiting.length === 0) return DEAD;
    const key = waiting.join(',');
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.add(waiting, false);
      this.ids.set(key, id);
    }
    return id;
  }

  private add(waiting: number[], atStart: boolean): number {
    const id = this.waiting.length;
    this.waiting.push(waiting);
    this.accepting.push(this.follow(waiting, atStart, true).some((pc) => this.program[pc].op === 'match'));
    this.others.push(undefined);
    if ((id + 1) * TABLE_WIDTH > this.table.length) {
      const larger = new Int32Array(this.table.length * 2).fill(UNKNOWN);
      larger.set(this.table);
      this.table = larger;
    }
    return id;
  }

  /**
   * The instructions where threads wait after following jumps, splits, saves and assertions from `seeds`:
   * characters, the match, and `\z` until the end is known. Start assertions hold only when `atStart`.
   */
  private follow(seeds: readonly number[], atStart: boolean, atEnd: boolean): number[] {
    const generation = ++this.generation;
    const marks = this.marks;
    const waiting: number[] = [];
    const pending = [...seeds];
    while (pending.length > 0) {
      const pc = pending.pop()!;
      if (marks[pc] === generation) continue;
      marks[pc] = generation;
      const instruction = this.program[pc];
      switch (instruction.op) {
        case 'jump':
          pending.push(instruction.to);
          break;
        case 'split':
          pending.push(instruction.second, instruction.first);
          break;
        case 'save':
          pending.push(pc + 1);
          break;
        case 'assert':
          if (instruction.assertion.kind === 'inputEnd') {
            if (atEnd) pending.push(pc + 1);
            else waiting.push(pc);
          } else if (atStart) {
            pending.push(pc + 1);
          }
          break;
        default:
          waiting.push(pc);
      }
    }
    return waiting.sort((a, b) => a - b);
  }
}
