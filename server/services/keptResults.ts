/**
 * Results kept in this process under a key that names everything they depend on (an entry's write version among
 * it), so a kept result is never stale: a write makes a new key and the old one is simply not asked again. The
 * least recently used is forgotten first once `capacity` results are kept. Requests asking for the same key while
 * it is being computed wait for that computation instead of running their own: after a write, the many readers of
 * a page would otherwise each scan the entry again at once.
 */
export class KeptResults<V> {
  private readonly kept = new Map<string, V>();
  private readonly computing = new Map<string, Promise<V>>();

  constructor(private readonly capacity: number) {}

  private get(key: string): V | undefined {
    const value = this.kept.get(key);
    if (value === undefined) return undefined;
    this.kept.delete(key);
    this.kept.set(key, value);
    return value;
  }

  /** The value kept under the key, or the one `compute` answers, then kept. */
  async keep(key: string, compute: () => Promise<V>): Promise<V> {
    const kept = this.get(key);
    if (kept !== undefined) return kept;
    const running = this.computing.get(key);
    if (running) return running;
    const computation = compute()
      .then((value) => {
        this.set(key, value);
        return value;
      })
      .finally(() => this.computing.delete(key));
    this.computing.set(key, computation);
    return computation;
  }

  private set(key: string, value: V): void {
    this.kept.delete(key);
    this.kept.set(key, value);
    if (this.kept.size > this.capacity) this.kept.delete(this.kept.keys().next().value!);
  }
}
