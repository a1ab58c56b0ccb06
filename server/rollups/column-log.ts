// An append-only set of typed columns ordered by a `time` column, trimmed from the front:
// the memory behind the recent data of a session. Slices are views; the log never writes
// over a slot a view can see (growing and compacting allocate new buffers, appends write
// past the end), so a view taken by a query stays valid while ingest moves on.

type Column = Float64Array | Int32Array;
type Columns = Record<string, Column> & { time: Float64Array };

export class ColumnLog<C extends Columns> {
  private cols: C;
  private head = 0;
  private tail = 0;
  private sorted = true;

  constructor(private readonly make: (capacity: number) => C) {
    this.cols = make(0);
  }

  get length(): number {
    return this.tail - this.head;
  }

  /** Appends rows [0, n) of `add` (same column names). */
  append(add: { [K in keyof C]: ArrayLike<number> }, n: number): void {
    if (!n) return;
    if (this.tail + n > this.cols.time.length) this.reallocate(this.length + n);
    const t = add.time;
    if (this.length && t[0] < this.cols.time[this.tail - 1]) this.sorted = false;
    for (let i = 1; i < n && this.sorted; i++) if (t[i] < t[i - 1]) this.sorted = false;
    for (const k of Object.keys(this.cols) as (keyof C)[]) {
      const src = add[k];
      const dst = this.cols[k];
      if (ArrayBuffer.isView(src)) dst.set((src as Column).subarray(0, n), this.tail);
      else for (let i = 0; i < n; i++) dst[this.tail + i] = src[i];
    }
    this.tail += n;
  }

  /**
   * Appends the rows of [0, n) with time >= from: what a trim at `from` would keep. A flush
   * can carry hours of samples of which the log keeps the last minutes; copying only those
   * spares the copy (and the growth) of the rest. Rows in time order, the usual case, need
   * one backward scan; otherwise the rows before that tail are checked too.
   */
  appendSince(add: { [K in keyof C]: ArrayLike<number> }, n: number, from: number): void {
    const t = add.time;
    let k = n;
    while (k > 0 && t[k - 1] >= from) k--;
    let tailOnly = true;
    for (let i = 0; i < k && tailOnly; i++) if (t[i] >= from) tailOnly = false;
    if (!tailOnly) {
      this.append(add, n);
      return;
    }
    if (k === n) return;
    const tail = {} as { [K in keyof C]: ArrayLike<number> };
    for (const key of Object.keys(add) as (keyof C)[]) {
      const src = add[key];
      tail[key] = ArrayBuffer.isView(src) ? (src as Column).subarray(k, n) : Array.prototype.slice.call(src, k, n);
    }
    this.append(tail, n - k);
  }

  /** Forgets the rows with time < cut (rows are put in time order first). */
  trimBefore(cut: number): void {
    this.ensureSorted();
    const i = this.lowerBound(cut);
    this.head = i;
    if (this.head === this.tail) this.head = this.tail = 0;
  }

  /** Views of the rows with from <= time < to, in time order. */
  slice(from: number, to: number): C {
    this.ensureSorted();
    const a = this.lowerBound(from);
    const b = Math.max(a, this.lowerBound(to));
    const out = {} as Record<string, Column>;
    for (const k of Object.keys(this.cols)) out[k] = this.cols[k].subarray(a, b);
    return out as C;
  }

  private lowerBound(t: number): number {
    const time = this.cols.time;
    let lo = this.head;
    let hi = this.tail;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (time[mid] < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Late rows arrive rarely: a stable sort by time, into new buffers (views stay intact). */
  private ensureSorted(): void {
    if (this.sorted) return;
    const n = this.length;
    const time = this.cols.time;
    const idx = Array.from({ length: n }, (_, i) => this.head + i).sort((x, y) => time[x] - time[y] || x - y);
    const next = this.make(Math.max(16, n * 2));
    for (const k of Object.keys(this.cols) as (keyof C)[]) {
      const src = this.cols[k];
      const dst = next[k];
      for (let i = 0; i < n; i++) dst[i] = src[idx[i]];
    }
    this.cols = next;
    this.head = 0;
    this.tail = n;
    this.sorted = true;
  }

  private reallocate(need: number): void {
    const next = this.make(Math.max(16, need * 2));
    for (const k of Object.keys(this.cols) as (keyof C)[]) next[k].set(this.cols[k].subarray(this.head, this.tail));
    this.cols = next;
    this.tail -= this.head;
    this.head = 0;
  }
}
