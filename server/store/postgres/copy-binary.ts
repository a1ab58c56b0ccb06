// Rows in PostgreSQL's binary COPY format (the server parses no text: an int8 is 8 bytes, a
// bytea its bytes), built into one Buffer and sent through pg-copy-streams' COPY FROM STDIN
// stream on a pg client. Format: a signature and two int32 words, then per row the field
// count (int16) and per field its length (int32, -1 for NULL) and bytes, then -1 (int16).
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { from as copyFrom } from 'pg-copy-streams';
import type { PoolClient } from 'pg';

const Signature = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
const Two32 = 4294967296;

export class CopyRows {
  private buf: Buffer;
  private at = 0;
  rows = 0;

  constructor(capacity = 1 << 16) {
    this.buf = Buffer.allocUnsafe(Math.max(capacity, 64));
    this.buf.set(Signature, 0);
    this.buf.writeInt32BE(0, 11); // flags
    this.buf.writeInt32BE(0, 15); // header extension length
    this.at = 19;
  }

  private room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.at + n) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.at);
    this.buf = next;
  }

  row(fields: number): this {
    this.room(2);
    this.buf.writeInt16BE(fields, this.at);
    this.at += 2;
    this.rows++;
    return this;
  }

  int2(v: number): this {
    this.room(6);
    this.buf.writeInt32BE(2, this.at);
    this.buf.writeInt16BE(v, this.at + 4);
    this.at += 6;
    return this;
  }

  int4(v: number): this {
    this.room(8);
    this.buf.writeInt32BE(4, this.at);
    this.buf.writeInt32BE(v, this.at + 4);
    this.at += 8;
    return this;
  }

  /** A whole number below 2^53 in magnitude, without a BigInt: its two 32-bit halves. */
  int8(v: number): this {
    this.room(12);
    this.buf.writeInt32BE(8, this.at);
    const hi = Math.floor(v / Two32);
    this.buf.writeInt32BE(hi, this.at + 4);
    this.buf.writeUInt32BE(v - hi * Two32, this.at + 8);
    this.at += 12;
    return this;
  }

  /** int4, or NULL for NaN. */
  int4OrNull(v: number): this {
    return Number.isNaN(v) ? this.nullField() : this.int4(v);
  }

  nullField(): this {
    this.room(4);
    this.buf.writeInt32BE(-1, this.at);
    this.at += 4;
    return this;
  }

  bytea(b: Uint8Array): this {
    this.room(4 + b.length);
    this.buf.writeInt32BE(b.length, this.at);
    this.buf.set(b, this.at + 4);
    this.at += 4 + b.length;
    return this;
  }

  /** A bytea whose bytes the caller writes at once (`fill` gets the buffer and the offset). */
  byteaWith(length: number, fill: (buf: Buffer, at: number) => void): this {
    this.room(4 + length);
    this.buf.writeInt32BE(length, this.at);
    fill(this.buf, this.at + 4);
    this.at += 4 + length;
    return this;
  }

  /** The whole COPY data, trailer included. */
  done(): Buffer {
    this.room(2);
    this.buf.writeInt16BE(-1, this.at);
    return this.buf.subarray(0, this.at + 2);
  }
}

/** Sends the rows with `COPY table (columns) FROM STDIN (FORMAT binary)` on the client. */
export async function copyInto(client: PoolClient, table: string, columns: string, rows: CopyRows): Promise<void> {
  if (!rows.rows) return;
  const data = rows.done();
  const stream = client.query(copyFrom(`COPY ${table} (${columns}) FROM STDIN (FORMAT binary)`));
  // Slices of 1 MB: the stream's back-pressure applies, no one write of the whole flush.
  const slices = function* () {
    for (let at = 0; at < data.length; at += 1 << 20) yield data.subarray(at, Math.min(data.length, at + (1 << 20)));
  };
  await pipeline(Readable.from(slices()), stream);
}
