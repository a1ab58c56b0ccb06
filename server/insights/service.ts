// The Insights calls of spec 3 section 7.1, one function per operation (the REST routes in
// plugin.ts call these; the hub carries only registration and progress).
import type { Principal } from '../account/principal.js';
import type { Config } from '../config.js';
import type { DomainEventBus } from '../events.js';
import type { Store } from '../store/db.js';
import { badRequest, forbidden, notFound, tooManyRequests } from '../http/errors.js';
import { parseTime } from '../http/time.js';
import { sessionFor } from '../targets/service.js';
import type { RecentSource } from '../data/sources.js';
import { queryKernels } from '../data/kernels.js';
import { WisdomMinimumDataMs, type WisdomFeedback, type WisdomResult, type WisdomTimeRange } from '../contract/insights.js';
import { runWisdomTests } from './catalogue.js';
import { loadSeries, type LoadTimings } from './load.js';
import { insertFeedback } from './repository.js';
import { stat } from './result.js';
import { SlidingWindowLimit } from './rate-limit.js';
import { insightsEnabled } from './edition.js';

export interface InsightsDeps {
  store: Store;
  config: Config;
  events: DomainEventBus;
  recent?: RecentSource;
  now?: () => number;
  /** Feedback per user and minute (every replica's count with Redis). */
  feedbackLimit?: SlidingWindowLimit;
}

/** Longest range one run analyses (the grid keeps ~720 buckets whatever the range). */
export const MaxWisdomRangeMs = 31 * 24 * 3600_000;
/** Feedback a user may send per minute. */
export const FeedbackPerMinute = 10;

export async function requireInsights(store: Store, config: Config): Promise<void> {
  if (!(await insightsEnabled(store, config))) {
    throw forbidden('Insights are off on this server: an administrator turns them on with HOPWATCH_INSIGHTS=1 (Settings > General > Insights).');
  }
}

/** The last `periodMinutes` of the target's data (up to its newest sample). */
export async function getWisdomDefaultTimeRange(deps: InsightsDeps, p: Principal, args: { id: string; periodMinutes: number }): Promise<WisdomTimeRange> {
  const s = await sessionFor(deps.store, p, args.id);
  if (s.latestSample === null || s.firstSample === null) throw notFound(`Target ${args.id} has no data yet.`);
  const end = s.latestSample;
  const start = Math.max(s.firstSample, end - args.periodMinutes * 60_000);
  return { Start: new Date(start).toISOString(), End: new Date(end).toISOString() };
}

export interface RunArgs {
  id: string;
  startTime: string | number;
  endTime: string | number;
  includeDetails: boolean;
  testIds?: number[];
}

export async function runTargetWisdomTests(deps: InsightsDeps, p: Principal, args: RunArgs, timings?: LoadTimings): Promise<WisdomResult> {
  const s = await sessionFor(deps.store, p, args.id);
  await requireInsights(deps.store, deps.config);
  const start = parseTime(args.startTime, 'startTime');
  const end = parseTime(args.endTime, 'endTime');
  if (!(end > start)) throw badRequest('endTime must be after startTime.');
  if (end - start > MaxWisdomRangeMs) throw badRequest('Insights analyse at most 31 days at a time: choose a shorter range.');
  const series = await loadSeries(deps.store, p, String(s.id), start, end, args.includeDetails, deps.recent, timings);
  const results = runWisdomTests(series, queryKernels().stats, {
    includeDetails: args.includeDetails,
    testIds: args.testIds,
    onProgress: (title) => deps.events.emit('WisdomTestProgress', s.accountId, s.id, title),
  });
  const sent = series.hops.reduce((n, h) => n + h.sent.reduce((a, b) => a + b, 0), 0);
  return {
    TestedSegment: {
      TimeRange: { Start: new Date(start).toISOString(), End: new Date(end).toISOString() },
      Stats: [
        stat('DurationMinutes', 'Duration', (end - start) / 60_000, 'min', true),
        stat('HopCount', 'Hops', series.hops.length, '', false, 0),
        stat('ProbeCount', 'Probes', sent, '', false, 0),
        stat('MinimumMinutes', 'Minimum data', WisdomMinimumDataMs / 60_000, 'min', false, 0),
      ],
    },
    Results: results,
  };
}

/** The limit of a deps without its own (unit tests): this process's counts. */
const processFeedbackLimit = new SlidingWindowLimit(FeedbackPerMinute, 60_000);

export async function addFeedback(deps: InsightsDeps, p: Principal, f: WisdomFeedback): Promise<{ Id: number }> {
  const now = deps.now?.() ?? Date.now();
  const wait = await (deps.feedbackLimit ?? processFeedbackLimit).take(`${p.accountId}:${p.userId}`, now);
  if (wait > 0) throw tooManyRequests('Too much feedback at once: try again in a minute.', Math.ceil(wait / 1000));
  // A feedback names the target it is about: it must be one the user may see.
  if (f.SessionId) await sessionFor(deps.store, p, f.SessionId);
  const id = await insertFeedback(deps.store, p.accountId, p.userId, f, now);
  return { Id: id };
}
