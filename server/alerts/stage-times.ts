// How long each step from an alert's event to its delivery took: the bench prints these, so a
// missed delay goal says where the time went (docs/alerts.md, docs/benchmarks.md).
/** wait: the event until its batch starts (behind the batch before); names: the targets' names read; journal: the outbox fsync; deliver: the fsync to the action's answer; store: the fsync to the rows in DuckDB. */
export type Stage = 'wait' | 'names' | 'journal' | 'deliver' | 'store';

/** The newest Kept figures of each stage (ms). */
const Kept = 10_000;

export class StageTimes {
  private readonly times = new Map<Stage, number[]>();

  note(stage: Stage, ms: number): void {
    let xs = this.times.get(stage);
    if (!xs) this.times.set(stage, (xs = []));
    xs.push(ms);
    if (xs.length > Kept) xs.splice(0, xs.length - Kept);
  }

  /** The p-th percentile (0 to 100) of a stage's figures, NaN without any. */
  percentile(stage: Stage, p: number): number {
    const xs = [...(this.times.get(stage) ?? [])].sort((a, b) => a - b);
    if (!xs.length) return NaN;
    return xs[Math.min(xs.length - 1, Math.max(0, Math.ceil((p / 100) * xs.length) - 1))];
  }

  count(stage: Stage): number {
    return this.times.get(stage)?.length ?? 0;
  }

  clear(): void {
    this.times.clear();
  }
}
