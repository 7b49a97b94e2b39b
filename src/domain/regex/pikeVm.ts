/**
 * The Pike VM: runs a program with every thread in step over the text, at most one thread per instruction, in
 * the priority order a backtracking engine would try them, so it finds the match (and the groups) Java finds in
 * time proportional to text × program, whatever the pattern. Used for searches and captures (file names, headers,
 * expressions) and for whole-text matches the lazy DFA does not take.
 */
import { isLineTerminator, predefinedClass } from './characters';
import type { Program } from './program';
import type { Assertion } from './syntax';

/** Called with the steps taken; throws to stop a match that would exceed a budget. */
export type Tick = (steps: number) => void;

/** Java's rules for each zero-width test at `at`; `start` is where the search began. */
function assertionHolds(assertion: Assertion, input: string, at: number, start: number): boolean {
  const end = input.length;
  switch (assertion.kind) {
    case 'inputStart':
      return at === 0;
    case 'searchStart':
      return at === start;
    case 'inputEnd':
      return at === end;
    case 'lineStart': {
      // As Perl, never at the end of the text, even after a line break; `\r\n` is one line break.
      if (at === end) return false;
      if (at === 0) return true;
      const before = input.charCodeAt(at - 1);
      if (assertion.unixLines) return before === 10;
      return isLineTerminator(before) && !(before === 13 && input.charCodeAt(at) === 10);
    }
    case 'lineEnd': {
      if (at === end) return true;
      const here = input.charCodeAt(at);
      if (assertion.unixLines) return here === 10 && (assertion.multiline || at === end - 1);
      if (!assertion.multiline) {
        if (at < end - 2) return false;
        if (at === end - 2) return here === 13 && input.charCodeAt(at + 1) === 10;
      }
      // Never between the `\r` and the `\n` of one line break.
      if (here === 10) return !(at > 0 && input.charCodeAt(at - 1) === 13);
      return isLineTerminator(here);
    }
    case 'wordBoundary': {
      const isWord = predefinedClass('w', assertion.unicode);
      const before = at > 0 && isWord(codePointBefore(input, at));
      const after = at < end && isWord(input.codePointAt(at)!);
      return (before !== after) !== assertion.negated;
    }
  }
}

function codePointBefore(input: string, at: number): number {
  const unit = input.charCodeAt(at - 1);
  if (unit >= 0xdc00 && unit <= 0xdfff && at > 1) {
    const high = input.charCodeAt(at - 2);
    if (high >= 0xd800 && high <= 0xdbff) return input.codePointAt(at - 2)!;
  }
  return unit;
}

interface Thread {
  readonly pc: number;
  readonly slots: readonly number[];
}

/**
 * Runs `program` from `start`: the capture slots of the preferred match (start and end of each group, -1 for a
 * group that took no part), or null.
 */
export function runPikeVm(
  program: Program,
  slotCount: number,
  input: string,
  start: number,
  tick?: Tick,
): number[] | null {
  let current: Thread[] = [];
  let next: Thread[] = [];
  const seen = new Int32Array(program.length).fill(-1);
  let generation = 0;
  let matched: number[] | null = null;

  /** Follows jumps, splits, saves and assertions from `pc` (in priority order) and queues the threads that wait. */
  const add = (list: Thread[], firstPc: number, firstSlots: readonly number[], at: number): void => {
    const pending: Thread[] = [{ pc: firstPc, slots: firstSlots }];
    while (pending.length > 0) {
      let { pc, slots } = pending.pop()!;
      for (;;) {
        if (seen[pc] === generation) break;
        seen[pc] = generation;
        tick?.(1);
        const instruction = program[pc];
        if (instruction.op === 'jump') {
          pc = instruction.to;
        } else if (instruction.op === 'split') {
          pending.push({ pc: instruction.second, slots });
          pc = instruction.first;
        } else if (instruction.op === 'save') {
          const copy = slots.slice();
          copy[instruction.slot] = at;
          slots = copy;
          pc += 1;
        } else if (instruction.op === 'assert') {
          if (!assertionHolds(instruction.assertion, input, at, start)) break;
          pc += 1;
        } else {
          list.push({ pc, slots });
          break;
        }
      }
    }
  };

  add(current, 0, new Array<number>(slotCount).fill(-1), start);
  for (let at = start; current.length > 0;) {
    generation += 1;
    const code = at < input.length ? input.codePointAt(at)! : -1;
    const width = code > 0xffff ? 2 : 1;
    for (const thread of current) {
      const instruction = program[thread.pc];
      if (instruction.op === 'match') {
        matched = thread.slots.slice();
        break; // the threads after this one have a lower priority
      }
      if (instruction.op === 'char' && code !== -1 && instruction.test(code))
        add(next, thread.pc + 1, thread.slots, at + width);
    }
    [current, next] = [next, []];
    at += width;
  }
  return matched;
}
