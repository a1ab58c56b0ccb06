// A growable columnar batch of hop samples (session, time, hop, latency): the unit that
// moves through ingest, transferable to a worker without copying row objects.

export interface SampleBatch {
  length: number;
  session: Int32Array;
  time: Float64Array;
  hop: Int32Array;
  latency: Float64Array;
  /**
   * The same rows in the widths the samples table stores them, once validation wrote them
   * (worker.ts prepare): the append hands DuckDB views of these, converting nothing on the
   * main thread (issue 45 item 2). Before validation, buffers of the batch's capacity for it
   * to write into (the builder's, reused flush after flush), or absent.
   */
  stored?: StoredSamples;
}

/** Samples as the samples table stores them: time in integer ms, hop, latency in integer microseconds or a negative code (latency-micros.ts). */
export interface StoredSamples {
  time: BigInt64Array;
  hop: Int16Array;
  latency: Int32Array;
}

/** Stored columns for n rows. */
export function newStoredSamples(n: number): StoredSamples {
  return { time: new BigInt64Array(n), hop: new Int16Array(n), latency: new Int32Array(n) };
}

export class SampleBatchBuilder {
  private n = 0;
  private session: Int32Array;
  private time: Float64Array;
  private hop: Int32Array;
  private latency: Float64Array;
  private spare: { session: Int32Array; time: Float64Array; hop: Int32Array; latency: Float64Array; stored?: StoredSamples } | undefined;

  constructor(capacity = 4096) {
    this.session = new Int32Array(capacity);
    this.time = new Float64Array(capacity);
    this.hop = new Int32Array(capacity);
    this.latency = new Float64Array(capacity);
  }

  get length(): number {
    return this.n;
  }

  push(session: number, time: number, hop: number, latency: number): void {
    if (this.n === this.time.length) this.grow();
    const i = this.n++;
    this.session[i] = session;
    this.time[i] = time;
    this.hop[i] = hop;
    this.latency[i] = latency;
  }

  /** Adds a whole columnar batch (typed copies, no per-row calls). */
  pushBatch(b: SampleBatch): void {
    while (this.n + b.length > this.time.length) this.grow();
    const at = this.n;
    this.session.set(b.session.subarray(0, b.length), at);
    this.time.set(b.time.subarray(0, b.length), at);
    this.hop.set(b.hop.subarray(0, b.length), at);
    this.latency.set(b.latency.subarray(0, b.length), at);
    this.n += b.length;
  }

  private grow(): void {
    const cap = Math.max(1, this.time.length * 2);
    const grow = <T extends Int32Array | Float64Array>(a: T, make: (n: number) => T): T => {
      const b = make(cap);
      b.set(a);
      return b;
    };
    this.session = grow(this.session, (k) => new Int32Array(k));
    this.time = grow(this.time, (k) => new Float64Array(k));
    this.hop = grow(this.hop, (k) => new Int32Array(k));
    this.latency = grow(this.latency, (k) => new Float64Array(k));
  }

  /**
   * Hands the rows over and starts empty again. A batch that fills most of the arrays takes
   * them as they are (views; the pipeline moves their buffers to the worker) and the builder
   * starts over with new ones of that size, sparing a copy of every sample; a small one is
   * copied out, so that a trickle of rounds does not allocate the full capacity each time.
   */
  take(): SampleBatch {
    const n = this.n;
    this.n = 0;
    if (n * 2 < this.time.length) {
      return { length: n, session: this.session.slice(0, n), time: this.time.slice(0, n), hop: this.hop.slice(0, n), latency: this.latency.slice(0, n) };
    }
    const cap = this.time.length;
    const spare = this.spare?.time.length === cap ? this.spare : undefined;
    this.spare = undefined;
    // Validation writes the stored widths into buffers of the same capacity, which come back with the batch.
    const batch: SampleBatch = {
      length: n,
      session: this.session.subarray(0, n),
      time: this.time.subarray(0, n),
      hop: this.hop.subarray(0, n),
      latency: this.latency.subarray(0, n),
      stored: spare?.stored ?? newStoredSamples(cap),
    };
    this.session = spare?.session ?? new Int32Array(cap);
    this.time = spare?.time ?? new Float64Array(cap);
    this.hop = spare?.hop ?? new Int32Array(cap);
    this.latency = spare?.latency ?? new Float64Array(cap);
    return batch;
  }

  /**
   * Gives back the buffers of a batch that take() handed over, once nothing reads them any
   * more: the next hand-over reuses them instead of allocating (and zeroing) new arrays, so
   * under load two sets of buffers take turns.
   */
  recycle(b: SampleBatch): void {
    const time = new Float64Array(b.time.buffer);
    if (time.length !== this.time.length) return; // a copied small batch, or the builder grew since
    const st = b.stored;
    const stored =
      st && st.time.buffer.byteLength === time.length * 8
        ? { time: new BigInt64Array(st.time.buffer), hop: new Int16Array(st.hop.buffer), latency: new Int32Array(st.latency.buffer) }
        : undefined;
    this.spare = { session: new Int32Array(b.session.buffer), time, hop: new Int32Array(b.hop.buffer), latency: new Float64Array(b.latency.buffer), stored };
  }
}

export function emptyBatch(): SampleBatch {
  return { length: 0, session: new Int32Array(0), time: new Float64Array(0), hop: new Int32Array(0), latency: new Float64Array(0) };
}
