// migrate-store's progress on stderr (docs/deploy.md "Moving an appliance onto PostgreSQL"):
// rows copied of all, the percent, MB of the source database, the rate and the time left. On a
// terminal one line redrawn in place; otherwise (a log, a pipe) a line every few seconds
// (HOPWATCH_MIGRATE_PROGRESS_MS; 0: a line per chunk).

/** Groups of three digits (1,234,567), the style of every count the product prints. */
export const grouped = (n: number): string => Math.round(n).toLocaleString('en-US');
const mb = (bytes: number): string => (bytes / 1e6).toFixed(1);

/** 1 h 02 min, 3 min 10 s, 12 s. */
export function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
  if (s >= 60) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  return `${s} s`;
}

export interface ProgressOptions {
  /** Rows of the whole copy, and of them already copied by an earlier run. */
  totalRows: number;
  doneRows: number;
  /** The source database's bytes (the DuckDB file and its WAL): MB are its share by rows. */
  totalBytes: number;
  out?: NodeJS.WriteStream | { write(s: string): unknown; isTTY?: boolean };
  /** Between two lines when stderr is not a terminal. */
  everyMs?: number;
  now?: () => number;
}

export class ProgressBar {
  private readonly out: NonNullable<ProgressOptions['out']>;
  private readonly tty: boolean;
  private readonly everyMs: number;
  private readonly now: () => number;
  private readonly started: number;
  private readonly startRows: number;
  private done: number;
  private lastLine = -Infinity;
  private drawn = false;

  constructor(private readonly o: ProgressOptions) {
    this.out = o.out ?? process.stderr;
    this.tty = Boolean(this.out.isTTY);
    this.everyMs = o.everyMs ?? 5000;
    this.now = o.now ?? (() => performance.now());
    this.started = this.now();
    this.startRows = o.doneRows;
    this.done = o.doneRows;
  }

  /** The line as printed: counts, percent, MB, rate and time left. */
  line(): string {
    const { totalRows, totalBytes } = this.o;
    const share = totalRows ? this.done / totalRows : 1;
    const elapsed = this.now() - this.started;
    const rowsNow = this.done - this.startRows;
    const rate = elapsed > 0 ? ((rowsNow / Math.max(totalRows, 1)) * totalBytes) / (elapsed / 1000) : 0;
    // Too early to tell from the first few rows (a table of one row took the time of a transaction).
    const measured = rowsNow > 0 && (elapsed >= 2000 || rowsNow >= 0.02 * totalRows);
    const left = measured ? duration(((totalRows - this.done) / rowsNow) * elapsed) + ' left' : 'time left: measuring';
    const pct = Math.floor(share * 100);
    return `migrate-store: ${grouped(this.done)} of ${grouped(totalRows)} rows ${pct}% ${mb(share * totalBytes)} of ${mb(totalBytes)} MB, ${(rate / 1e6).toFixed(1)} MB/s, ${left}`;
  }

  /** Rows copied since the last call. */
  add(rows: number): void {
    this.done += rows;
    const t = this.now();
    if (this.tty) {
      // Redrawn at most five times a second (a table of a few rows is a chunk too).
      if (t - this.lastLine < 200) return;
      this.lastLine = t;
      this.out.write(`\r${this.line()}\x1b[K`);
      this.drawn = true;
    } else if (t - this.lastLine >= this.everyMs) {
      this.lastLine = t;
      this.out.write(`${this.line()}\n`);
    }
  }

  /** The last line, complete; returns the source MB per second of this run. */
  finish(): number {
    const line = this.line();
    this.out.write(this.tty ? `\r${line}\x1b[K\n` : `${line}\n`);
    this.drawn = false;
    const elapsed = (this.now() - this.started) / 1000;
    const bytes = ((this.done - this.startRows) / Math.max(this.o.totalRows, 1)) * this.o.totalBytes;
    return elapsed > 0 ? bytes / 1e6 / elapsed : 0;
  }

  /** A message on a line of its own (the bar, on a terminal, is redrawn after it). */
  say(text: string): void {
    this.out.write(`${this.tty && this.drawn ? '\r\x1b[K' : ''}${text}\n`);
    if (this.tty && this.drawn) this.out.write(this.line());
  }
}
