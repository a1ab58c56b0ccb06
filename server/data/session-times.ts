// The session fields a DataPointBuckets call needs (owner, first and latest sample, the hop
// where the target answers), cached
// per session so that a call on an open session needs no store query at all. The owner
// never changes; the sample times change only when the ingest pipeline commits samples of
// the session, and each such commit changes its counter, which invalidates the entry.
import type { Principal } from '../account/principal.js';
import { outsideLiveShare } from '../liveshare/scope.js';
import { parseTargetId } from '../contract/targets.js';
import type { Store } from '../store/db.js';
import { sessionFor } from '../targets/service.js';
import type { SessionRecord } from '../targets/repository.js';
import type { RecentSource } from './sources.js';

export interface SessionTimes {
  id: number;
  accountId: number;
  firstSample: number | null;
  latestSample: number | null;
  /** The first hop at which the target's own address answered; null while it never did. */
  targetHop: number | null;
  /** The agent that runs the trace (its HubSentinelID; -1 the Local Machine). */
  agentId: number;
}

interface Entry extends SessionTimes {
  commits: number;
}

/** Entries kept per source (a session id costs a few dozen bytes). */
export const SessionTimesLimit = 10_000;

const caches = new WeakMap<RecentSource, Map<number, Entry>>();

/** sessionFor, answered from the cache when the entry is current and the caller owns it. */
export async function sessionTimes(store: Store, p: Principal, targetId: string, source?: RecentSource): Promise<SessionTimes> {
  if (!source) return withTargetHop(store, await sessionFor(store, p, targetId));
  let cache = caches.get(source);
  if (!cache) caches.set(source, (cache = new Map()));
  const id = parseTargetId(targetId)?.sessionId;
  const hit = id === undefined ? undefined : cache.get(id);
  if (hit && hit.accountId === p.accountId && !outsideLiveShare(p, hit.id) && hit.commits === source.commits(hit.id)) return hit;
  // Read the counter before the row: a commit in between leaves the entry stale, not wrong.
  const commits = id === undefined ? 0 : source.commits(id);
  const s = await withTargetHop(store, await sessionFor(store, p, targetId));
  if (cache.size >= SessionTimesLimit) cache.clear();
  cache.set(s.id, { ...s, commits });
  return s;
}

/** Hosts change only in a commit of the session, so the cached value follows the counter. */
async function withTargetHop(store: Store, s: SessionRecord): Promise<SessionTimes> {
  const row = await store.read((q) => q.one<{ hop: number | null }>('SELECT min(hop) AS hop FROM hosts WHERE session_id = $1 AND address = $2', [s.id, s.targetIp]));
  return { id: s.id, accountId: s.accountId, firstSample: s.firstSample, latestSample: s.latestSample, targetHop: row?.hop ?? null, agentId: s.sentinelId };
}
