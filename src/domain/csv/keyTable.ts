/**
 * The keys met in a file, to find duplicated lines: an open-addressing hash table over typed arrays (FNV-1a hashes,
 * linear probing) that keeps each distinct key once with the line it was first met on. Exact: keys are compared
 * when hashes match. The keys themselves are kept as pages of joined text (a few thousand keys per string) rather
 * than one string each, so that a file of a million lines leaves a few hundred objects for the collector to keep,
 * not a million.
 */
const PAGE_SIZE = 4096;

export class KeyTable {
  private slots = new Int32Array(1 << 12).fill(-1);
  private hashes = new Int32Array(1 << 12);
  private mask = (1 << 12) - 1;
  private count = 0;
  /** Joined keys of the full pages, and where each key starts and ends in its page. */
  private readonly pages: string[] = [];
  private starts = new Int32Array(PAGE_SIZE);
  private ends = new Int32Array(PAGE_SIZE);
  /** Keys of the page being filled. */
  private current: string[] = [];
  private currentLength = 0;
  private lines = new Int32Array(PAGE_SIZE);

  get size(): number {
    return this.count;
  }

  /** Adds a key met on `line`; when it was met before, gives the line of its first occurrence (otherwise -1). */
  add(key: string, line: number): number {
    let hash = 0x811c9dc5 | 0;
    for (let index = 0; index < key.length; index += 1) hash = Math.imul(hash ^ key.charCodeAt(index), 0x01000193);
    const slots = this.slots;
    const hashes = this.hashes;
    const mask = this.mask;
    let at = hash & mask;
    for (;;) {
      const slot = slots[at];
      if (slot < 0) break;
      if (hashes[at] === hash && this.keyEquals(slot, key)) return this.lines[slot];
      at = (at + 1) & mask;
    }
    const index = this.count;
    this.store(index, key, line);
    slots[at] = index;
    hashes[at] = hash;
    this.count += 1;
    if (this.count * 2 > mask) this.grow();
    return -1;
  }

  private store(index: number, key: string, line: number): void {
    if (index >= this.lines.length) {
      this.lines = grown(this.lines);
      this.starts = grown(this.starts);
      this.ends = grown(this.ends);
    }
    this.lines[index] = line;
    this.starts[index] = this.currentLength;
    this.currentLength += key.length;
    this.ends[index] = this.currentLength;
    this.current.push(key);
    if (this.current.length === PAGE_SIZE) {
      this.pages.push(this.current.join(''));
      this.current = [];
      this.currentLength = 0;
    }
  }

  private keyEquals(index: number, key: string): boolean {
    const start = this.starts[index];
    const end = this.ends[index];
    if (end - start !== key.length) return false;
    const page = Math.floor(index / PAGE_SIZE);
    if (page < this.pages.length) return this.pages[page].startsWith(key, start);
    return this.current[index % PAGE_SIZE] === key;
  }

  private grow(): void {
    const size = (this.mask + 1) * 2;
    const slots = new Int32Array(size).fill(-1);
    const hashes = new Int32Array(size);
    const mask = size - 1;
    for (let at = 0; at <= this.mask; at += 1) {
      const slot = this.slots[at];
      if (slot < 0) continue;
      let to = this.hashes[at] & mask;
      while (slots[to] >= 0) to = (to + 1) & mask;
      slots[to] = slot;
      hashes[to] = this.hashes[at];
    }
    this.slots = slots;
    this.hashes = hashes;
    this.mask = mask;
  }
}

function grown(array: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const larger = new Int32Array(array.length * 2);
  larger.set(array);
  return larger;
}
