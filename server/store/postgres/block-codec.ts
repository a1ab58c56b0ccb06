// The integer columns of a packed block (docs/store.md "Samples on PostgreSQL"): each column
// delta-encoded and bit-packed in miniblocks of 128 values, the scheme of Parquet's
// DELTA_BINARY_PACKED that the data file's format version 2 uses (docs/data-file.md): per
// miniblock the smallest delta (a zigzag varint) and one bit width, then every delta minus
// that smallest in that many bits. A time column of a constant step packs to 0 bits a value,
// a count that never changes likewise, a latency of one hop to the bits of its jitter.
// Values are whole numbers of at most 2^50 in magnitude (so that deltas and their ranges stay exact) (ms since 1970, microseconds, sums of
// microseconds). A nullable column carries a bitmap; a NULL is written as the value before it
// (a delta of 0) and read back as NaN.

const Mini = 128;

/** A growing byte buffer with the writes the codec needs. */
export class ByteWriter {
  private buf = new Uint8Array(256);
  length = 0;

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }

  byte(b: number): void {
    this.room(1);
    this.buf[this.length++] = b;
  }

  /** A non-negative whole number below 2^53, 7 bits a byte. */
  varint(v: number): void {
    this.room(8);
    while (v >= 128) {
      this.buf[this.length++] = (v % 128) | 128;
      v = Math.floor(v / 128);
    }
    this.buf[this.length++] = v;
  }

  /** A whole number of either sign, zigzagged (0, -1, 1, -2 ... as 0, 1, 2, 3 ...). */
  signed(v: number): void {
    this.varint(v < 0 ? -2 * v - 1 : 2 * v);
  }

  bytes(b: Uint8Array): void {
    this.room(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }

  /** `count` values of `width` bits each (0 <= value < 2^width), least significant bit first. */
  packed(values: Float64Array, from: number, count: number, width: number): void {
    if (width === 0) return;
    this.room(Math.ceil((count * width) / 8) + 4);
    const buf = this.buf;
    let at = this.length;
    let acc = 0; // pending bits, fewer than 8 after each write
    let bits = 0;
    for (let i = 0; i < count; i++) {
      let v = values[from + i];
      let left = width;
      while (left > 0) {
        const take = left > 16 ? 16 : left;
        const part = take === 16 ? v % 65536 : v % (1 << take);
        v = (v - part) / (1 << take);
        left -= take;
        acc |= part << bits;
        bits += take;
        while (bits >= 8) {
          buf[at++] = acc & 255;
          acc >>>= 8;
          bits -= 8;
        }
      }
    }
    if (bits > 0) buf[at++] = acc & 255;
    this.length = at;
  }

  done(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

/** Reads what ByteWriter wrote. */
export class ByteReader {
  at = 0;
  constructor(readonly buf: Uint8Array) {}

  byte(): number {
    if (this.at >= this.buf.length) throw new Error('packed block: truncated');
    return this.buf[this.at++];
  }

  varint(): number {
    let v = 0;
    let scale = 1;
    for (;;) {
      const b = this.byte();
      v += (b & 127) * scale;
      if (b < 128) return v;
      scale *= 128;
      if (scale > 2 ** 56) throw new Error('packed block: bad varint');
    }
  }

  signed(): number {
    const z = this.varint();
    return z % 2 ? -(z + 1) / 2 : z / 2;
  }

  bytes(n: number): Uint8Array {
    if (this.at + n > this.buf.length) throw new Error('packed block: truncated');
    const out = this.buf.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }

  /** Adds `base` plus each of `count` packed values of `width` bits, as running sums, into out[from..]. */
  unpackDeltas(out: Float64Array | Int32Array, from: number, count: number, width: number, base: number, minDelta: number): number {
    let v = base;
    if (width === 0) {
      for (let i = 0; i < count; i++) out[from + i] = v += minDelta;
      return v;
    }
    const buf = this.buf;
    const bytes = Math.ceil((count * width) / 8);
    if (this.at + bytes > buf.length) throw new Error('packed block: truncated');
    let at = this.at;
    let acc = 0;
    let bits = 0;
    if (width <= 24) {
      const mask = (1 << width) - 1;
      for (let i = 0; i < count; i++) {
        while (bits < width) {
          acc |= buf[at++] << bits;
          bits += 8;
        }
        out[from + i] = v += (acc & mask) + minDelta;
        acc >>>= width;
        bits -= width;
      }
    } else {
      for (let i = 0; i < count; i++) {
        let u = 0;
        let scale = 1;
        let left = width;
        while (left > 0) {
          const take = left > 16 ? 16 : left;
          while (bits < take) {
            acc |= buf[at++] << bits;
            bits += 8;
          }
          u += (acc & ((1 << take) - 1)) * scale;
          acc >>>= take;
          bits -= take;
          scale *= 1 << take;
          left -= take;
        }
        out[from + i] = v += u + minDelta;
      }
    }
    this.at += bytes;
    return v;
  }
}

/** The bits a whole number 0 <= range < 2^53 needs. */
function bitWidth(range: number): number {
  let w = 0;
  while (2 ** w <= range) w++;
  return w;
}

/**
 * Writes one column of `n` values (whole numbers; NaN a NULL when `nullable`). Layout: a flag
 * byte (1 = a NULL bitmap follows), the bitmap, the first value, then per miniblock of up to
 * 128 deltas: the smallest delta, the bit width, the packed deltas minus the smallest.
 */
export function writeColumn(w: ByteWriter, values: ArrayLike<number>, n: number, nullable = false): void {
  let hasNull = false;
  if (nullable) for (let i = 0; i < n && !hasNull; i++) hasNull = Number.isNaN(values[i]);
  w.byte(hasNull ? 1 : 0);
  const v = new Float64Array(n);
  if (hasNull) {
    const bitmap = new Uint8Array(Math.ceil(n / 8));
    let prev = 0;
    for (let i = 0; i < n; i++) {
      const x = values[i];
      if (Number.isNaN(x)) {
        bitmap[i >> 3] |= 1 << (i & 7);
        v[i] = prev;
      } else v[i] = prev = x;
    }
    w.bytes(bitmap);
  } else for (let i = 0; i < n; i++) v[i] = values[i];
  if (!n) return;
  w.signed(v[0]);
  const deltas = new Float64Array(Mini);
  for (let from = 1; from < n; from += Mini) {
    const count = Math.min(Mini, n - from);
    let min = Infinity;
    let max = -Infinity;
    for (let i = 0; i < count; i++) {
      const d = v[from + i] - v[from + i - 1];
      deltas[i] = d;
      if (d < min) min = d;
      if (d > max) max = d;
    }
    const width = bitWidth(max - min);
    for (let i = 0; i < count; i++) deltas[i] -= min;
    w.signed(min);
    w.byte(width);
    w.packed(deltas, 0, count, width);
  }
}

/**
 * Reads a column of `n` values that writeColumn wrote, into out[0..n) (NULLs as NaN). An
 * Int32Array `out` takes a column of whole numbers without NULLs that fit it (counts, flags).
 */
export function readColumn<T extends Float64Array | Int32Array = Float64Array>(r: ByteReader, n: number, out: T = new Float64Array(n) as T): T {
  const hasNull = r.byte() === 1;
  const bitmap = hasNull ? r.bytes(Math.ceil(n / 8)) : undefined;
  if (n) {
    let v = r.signed();
    out[0] = v;
    for (let from = 1; from < n; from += Mini) {
      const count = Math.min(Mini, n - from);
      const min = r.signed();
      const width = r.byte();
      if (width > 53) throw new Error('packed block: bad bit width');
      v = r.unpackDeltas(out, from, count, width, v, min);
    }
  }
  if (bitmap) for (let i = 0; i < n; i++) if (bitmap[i >> 3] & (1 << (i & 7))) out[i] = NaN;
  return out;
}
