// Look-ups by id that arrive in the same turn of the event loop, answered by one read for all
// of them: many callers each asking for one session (every live trace's HostUpdated, every
// agent's first batch) cost one statement instead of one each.

export class BatchedLookup<V> {
  private waiting = new Map<number, { resolve: (v: V) => void; reject: (err: unknown) => void }[]>();

  /** `read` answers for the ids it is given; an id it leaves out gets `missing(id)`. */
  constructor(
    private readonly read: (ids: number[]) => Promise<Map<number, V>>,
    private readonly missing: (id: number) => V,
  ) {}

  get(id: number): Promise<V> {
    return new Promise((resolve, reject) => {
      if (this.waiting.size === 0) setImmediate(() => void this.run());
      const list = this.waiting.get(id);
      if (list) list.push({ resolve, reject });
      else this.waiting.set(id, [{ resolve, reject }]);
    });
  }

  private async run(): Promise<void> {
    const waiting = this.waiting;
    this.waiting = new Map();
    try {
      const found = await this.read([...waiting.keys()]);
      for (const [id, callers] of waiting) {
        const v = found.has(id) ? found.get(id)! : this.missing(id);
        for (const c of callers) c.resolve(v);
      }
    } catch (err) {
      for (const callers of waiting.values()) for (const c of callers) c.reject(err);
    }
  }
}
