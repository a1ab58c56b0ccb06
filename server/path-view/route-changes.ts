// Route changes of one trace (issue 44 item 3; docs/path-view.md "Route changes"): a hop's
// address set changed from one minute to a later one. Pure.
//
// Per hop, the minutes in which it answered are read in order as runs of equal address sets.
// Two kinds of one-minute runs are not changes of their own:
// - a transition minute: its set is the union of the runs before and after it (the route
//   changed inside that minute, so it saw both): the change is marked at that minute, old ->
//   new being the runs around it;
// - a sampling gap of a load-balanced hop: its set is a part of the runs before and after it,
//   which are equal (few probes that minute reached one branch only): no change at all.
// A minute in which the hop did not answer says nothing about its route (loss, not a change).

export interface HopMinute {
  minute: number;
  /** The addresses that answered at the hop in the minute, sorted. */
  addresses: string[];
  /** Answered minutes this entry stands for (consecutive ones with the same addresses); default 1. */
  count?: number;
}

export interface HopRouteChange {
  minute: number;
  old: string[];
  new: string[];
}

const same = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
const subset = (a: string[], b: string[]) => a.every((x) => b.includes(x));
const union = (a: string[], b: string[]) => [...new Set([...a, ...b])].sort();

interface Run {
  first: number;
  addresses: string[];
  minutes: number;
}

function runsOf(minutes: readonly HopMinute[]): Run[] {
  const runs: Run[] = [];
  for (const m of [...minutes].sort((a, b) => a.minute - b.minute)) {
    if (!m.addresses.length) continue;
    const last = runs[runs.length - 1];
    if (last && same(last.addresses, m.addresses)) last.minutes += m.count ?? 1;
    else runs.push({ first: m.minute, addresses: m.addresses, minutes: m.count ?? 1 });
  }
  return runs;
}

/** The route changes of one hop over its minutes. */
export function hopRouteChanges(minutes: readonly HopMinute[]): HopRouteChange[] {
  let runs = runsOf(minutes);
  // Sampling gaps first: a one-minute part of equal neighbours joins them.
  const kept: Run[] = [];
  for (let i = 0; i < runs.length; i++) {
    const r = runs[i];
    const before = kept[kept.length - 1];
    const after = runs[i + 1];
    if (before && after && r.minutes === 1 && same(before.addresses, after.addresses) && subset(r.addresses, before.addresses)) {
      before.minutes += 1 + after.minutes;
      i++;
      continue;
    }
    if (before && same(before.addresses, r.addresses)) before.minutes += r.minutes;
    else kept.push({ ...r });
  }
  runs = kept;
  const out: HopRouteChange[] = [];
  for (let i = 1; i < runs.length; i++) {
    const before = runs[i - 1];
    const r = runs[i];
    const after = runs[i + 1];
    if (after && r.minutes === 1 && !same(before.addresses, after.addresses) && same(r.addresses, union(before.addresses, after.addresses))) {
      out.push({ minute: r.first, old: before.addresses, new: after.addresses });
      i++; // the run after the transition is the change's new side, not a change of its own
      continue;
    }
    out.push({ minute: r.first, old: before.addresses, new: r.addresses });
  }
  return out;
}
