/**
 * The keys met in a file, to find duplicated lines: an open-addressing hash table over typed arrays (FNV-1a hashes,
 * linear probing) that keeps each distinct key once with the line it was first met on. Exact (keys are compared
 * when hashes match) and much lighter than a Map of a million strings.
 */
export class KeyTable {
  private slots = new Int32Array(1 << 12).fill(-1);
  private hashes = new Int32Array(1 << 12);
  private mask = (1 << 12) - 1;
  private readonly keys: string[] = [];
  private readonly lines: number[] = [];

  get size(): number {
    return this.keys.length;
  }

  /** Adds a key met on `line`; when it was met before, gives the line of its first occurrence (otherwise -1). */
  add(key: string, line: number): number {
    let hash = 0x811c9dc5;
    for (let index = 0; index < key.length; index += 1) hash = Math.imul(hash ^ key.charCodeAt(index), 0x01000193);
    const slots = this.slots;
    const hashes = this.hashes;
    const mask = this.mask;
    let at = hash & mask;
    for (;;) {
      const slot = slots[at];
      if (slot < 0) break;
      if (hashes[at] === hash && this.keys[slot] === key) return this.lines[slot];
      at = (at + 1) & mask;
    }
    const index = this.keys.length;
    this.keys.push(key);
    this.lines.push(line);
    slots[at] = index;
    hashes[at] = hash;
    if (index * 2 > mask) this.grow();
    return -1;
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
