// bench:soak's arithmetic (bench/soak.mjs), apart so it is unit-tested
// (test/bench/soak-figures.test.ts): the database size the retention settings predict, the
// least-squares slope per hour, and the goals of issue 45 item 7.

/**
 * What the DuckDB file holds, from bench:store's measure of 2026-11-28 (docs/benchmarks.md: 21,772,800
 * hop samples of 30 hops at 2.5 s = 2.72 B a hop sample raw, and 1,012,950 rollup rows = 0.90 B a hop
 * sample, so 19.3 B a rollup row). `unpacked`: what a raw sample costs more before its UTC day is
 * packed into hop order. The packer rewrites a day once it ended 2 hours before the session's latest
 * sample, at its next hourly run: until then the day's samples of every session are stored in arrival
 * order, the sessions' rounds interleaved: 4.39 bytes a hop sample (docs/store.md "The file against
 * the retention settings": 300 sessions of 6 hops at 1 s, the samples table's blocks after a
 * CHECKPOINT; one session alone in arrival order is 3.22), against the 2.72 packed.
 */
export const StoredBytes = { raw: 2.72, unpacked: 4.39 - 2.72, rollupRow: (0.9 * 21_772_800) / 1_012_950 };

/**
 * Rollup rows a hop has per minute, whatever its trace's interval: one 1-minute row, and a tenth of
 * a 10-minute and a sixtieth of an hourly row (kept for ever). So a hop sample costs the rollups in
 * proportion to the interval: at bench:store's 2.5 s the 1-minute tier is 0.81 B a hop sample and
 * the coarser ones 0.09; at bench:soak's 1 s 2.5 times less. Until 2026-11-30 the prediction counted
 * 0.81 and 0.09 a hop sample at any interval: at 1 s 2.5 times the rollups the soaks' files held
 * (0.32 and 0.33 B a hop sample at the end of the 2-hour runs of 2026-11-29).
 */
export const RowsPerHopMinute = { minute: 1, coarse: 1 / 10 + 1 / 60 };
const Day = 86_400_000;
const Hour = 3_600_000;
/** The packer's lag behind a day's end (sample-order.ts: 2 hours, then its next hourly run). */
export const PackedAfterMs = 3 * Hour;

/**
 * The share of the run's hop samples not packed yet at `now` (ms since the epoch) for a run
 * that began `elapsedMs` before: those of the UTC days the packer has not reached, at the run's
 * steady rate.
 */
export function unpackedShare(now, elapsedMs) {
  const horizon = Math.floor((now - PackedAfterMs) / Day) * Day;
  return elapsedMs <= 0 ? 1 : Math.min(1, Math.max(0, now - horizon) / elapsedMs);
}

/**
 * The DuckDB file (with its WAL) the retention settings predict: the file when measuring began
 * plus, for each tier, what is still inside its retention: all of it while the run is younger than
 * the tier's days, then the rate times the days (what expiry leaves); and the raw samples not
 * packed yet at their arrival-order cost. For traces at `intervalMs`, S hop samples are
 * S x intervalMs / 60 s hop minutes (M):
 *   predicted = base + S_raw x 2.72 + S_unpacked x 1.67 + M_minute x 1 x 19.3 + M x (1/10 + 1/60) x 19.3,
 *   S_tier = S x min(1, tierDays / elapsed), S = hop samples committed since measuring began,
 *   S_unpacked = S x unpackedShare(now, elapsed).
 */
export function predictedDatabaseBytes({ baseBytes, samples, elapsedMs, retention, intervalMs, now = Date.now(), bytes = StoredBytes }) {
  const kept = (days) => (elapsedMs <= 0 ? samples : samples * Math.min(1, (days * Day) / elapsedMs));
  const unpacked = Math.min(kept(retention.rawDays), samples * unpackedShare(now, elapsedMs));
  const hopMinutes = (hopSamples) => (hopSamples * intervalMs) / 60_000;
  return (
    baseBytes +
    kept(retention.rawDays) * bytes.raw +
    unpacked * (bytes.unpacked ?? 0) +
    hopMinutes(kept(Math.max(retention.minuteDays, retention.rawDays))) * RowsPerHopMinute.minute * bytes.rollupRow +
    hopMinutes(samples) * RowsPerHopMinute.coarse * bytes.rollupRow
  );
}

/** Least-squares slope of [minutes, value] points, per hour (0 with fewer than two points). */
export function slopePerHour(points) {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (const [x, y] of points) {
    sxy += (x - mx) * (y - my);
    sxx += (x - mx) ** 2;
  }
  return sxx ? (sxy / sxx) * 60 : 0;
}

const median = (xs) => {
  const a = [...xs].sort((x, y) => x - y);
  return a.length % 2 ? a[(a.length - 1) / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
};

/**
 * Issue 45 item 7's goals over the points after the settling time ({ minutes, rss, heap, fds,
 * clients, file, predicted, delayP99 }). "Flat" for descriptors and delay: the fitted line rises less
 * over the window than a tolerance (descriptors 2; delay 2 ms or 20% of its median, whichever
 * is more), so that one busy interval on a shared host does not read as growth. Descriptors are
 * judged without the connections clients hold open at that moment (`clients`, established on
 * the server's port): the bench's HTTP client keeps 0 to 50 idle connections by the moment's
 * timing, which is the clients' choice, not a leak; a socket the server fails to close stays
 * counted (its side in CLOSE_WAIT).
 */
export function soakGoals(points) {
  // A slope needs two points: fewer measure nothing, and nothing is printed as met.
  if (points.length < 2) return ['RSS', 'V8 heap', 'open descriptors', 'DuckDB file', 'event-loop delay p99'].map((goal) => ({ goal, met: false, figure: `not measured: ${points.length} point(s) after the settling time` }));
  const slope = (key) => slopePerHour(points.map((p) => [p.minutes, p[key]]));
  const hours = points.length > 1 ? (points[points.length - 1].minutes - points[0].minutes) / 60 : 0;
  const last = points[points.length - 1];
  const own = points.map((p) => p.fds - (p.clients ?? 0));
  const fdRise = slopePerHour(points.map((p, i) => [p.minutes, own[i]])) * hours;
  const delayRise = slope('delayP99') * hours;
  const delayTolerance = Math.max(2, 0.2 * median(points.map((p) => p.delayP99)));
  const ratio = last ? last.file / last.predicted : NaN;
  return [
    { goal: 'RSS (after a full GC) slope <= 5 MB/hour', met: slope('rss') <= 5, figure: `${slope('rss').toFixed(2)} MB/hour` },
    { goal: 'V8 heap (after a full GC) slope <= 5 MB/hour', met: slope('heap') <= 5, figure: `${slope('heap').toFixed(2)} MB/hour` },
    { goal: "open descriptors flat, the clients' open connections apart (fitted rise over the window < 2)", met: fdRise < 2, figure: `${fdRise.toFixed(1)} over ${hours.toFixed(2)} h (${own[0]} -> ${own[own.length - 1]}; with the clients' connections ${points[0]?.fds} -> ${last?.fds})` },
    { goal: 'DuckDB file within 10% of the prediction', met: Math.abs(ratio - 1) <= 0.1, figure: `${(ratio * 100).toFixed(1)}% of it at the end` },
    { goal: 'event-loop delay p99 flat (fitted rise < max(2 ms, 20% of its median))', met: delayRise < delayTolerance, figure: `${delayRise.toFixed(1)} ms over ${hours.toFixed(2)} h (median p99 ${median(points.map((p) => p.delayP99)).toFixed(1)} ms)` },
  ];
}
