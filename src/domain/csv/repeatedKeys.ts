import { KeyTable } from './keyTable';

/** Keys met line after line, and for each key met more than once, every line it was met on. */
export class RepeatedKeys {
  private readonly table = new KeyTable();
  private readonly repeated = new Map<string, number[]>();

  /** Notes the key met on `line`; answers whether it is met for the first time. */
  meet(key: string, line: number): boolean {
    const first = this.table.add(key, line);
    if (first < 0) return true;
    const lines = this.repeated.get(key);
    if (lines) lines.push(line);
    else this.repeated.set(key, [first, line]);
    return false;
  }

  /** Each key met more than once, with its lines in the order met. */
  repeats(): Iterable<[key: string, lines: number[]]> {
    return this.repeated;
  }
}
