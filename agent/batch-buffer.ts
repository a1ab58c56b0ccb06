// The batch being gathered (agent/program.ts): each round's wire text is encoded into one
// reused buffer the moment the round arrives, and the batch's line is cut from it when the
// batch window closes. Nothing of a round stays on the JS heap for the window: rounds held for
// up to 50 ms as objects or strings outlived young-generation collections and were promoted by
// the megabyte (the agent promoted 76 MB a minute against the runtime alone's 44, and its old
// generation was collected twice as often, docs/benchmarks.md).

/** Room kept before the rounds for the line's head, `{"t":"batch","seq":N,"rounds":[`. */
const HeadRoom = 48;
const StartBytes = 64 * 1024;
/** A buffer grown past this for a large batch is not kept for the next one. */
const KeepBytes = 1024 * 1024;

export class BatchBuffer {
  private buf = Buffer.allocUnsafe(StartBytes);
  private at = HeadRoom;
  private count = 0;

  /** Rounds in the batch so far. */
  get rounds(): number {
    return this.count;
  }

  /** Adds a round's wire text (wireRoundText). */
  add(roundText: string): void {
    const most = roundText.length * 3 + 1; // UTF-8 takes at most 3 bytes a UTF-16 unit
    if (this.at + most + 3 > this.buf.length) this.grow(this.at + most + 3);
    if (this.count > 0) this.buf[this.at++] = 0x2c; // ,
    this.at += this.buf.write(roundText, this.at, 'utf8');
    this.count++;
  }

  /**
   * The batch's line, JSON.stringify({ t: 'batch', seq, rounds }) and a newline (SpooledBatch),
   * in a buffer of its own (it is written, sent and kept until acknowledged); the buffer starts
   * the next batch empty.
   */
  line(seq: number): Buffer {
    const head = `{"t":"batch","seq":${seq},"rounds":[`;
    if (head.length > HeadRoom) throw new Error(`batch sequence number ${seq} too long`);
    const start = HeadRoom - head.length;
    this.buf.write(head, start, 'latin1');
    this.buf[this.at++] = 0x5d; // ]
    this.buf[this.at++] = 0x7d; // }
    this.buf[this.at++] = 0x0a; // newline
    const line = Buffer.from(this.buf.subarray(start, this.at));
    if (this.buf.length > KeepBytes) this.buf = Buffer.allocUnsafe(StartBytes);
    this.at = HeadRoom;
    this.count = 0;
    return line;
  }

  private grow(bytes: number): void {
    const next = Buffer.allocUnsafe(Math.max(bytes, this.buf.length * 2));
    this.buf.copy(next, 0, 0, this.at);
    this.buf = next;
  }
}
