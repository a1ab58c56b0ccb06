// A Sidekick card's data: the target's last 10 minutes as 10-second DataPointBuckets, refreshed
// every 5 s (the card's graph and its status colour read the same points).
import { useEffect, useState } from 'react';
import type { DataPoint } from '../../../server/contract/data';
import { dataPointBuckets } from '../target/api';

export const RecentWindowMs = 10 * 60_000;
export const RecentBucketSeconds = 10;
const RefreshMs = 5000;

export function useRecentBuckets(targetId: string): { points: DataPoint[]; loadedAt: number } {
  const [data, setData] = useState<{ points: DataPoint[]; loadedAt: number }>({ points: [], loadedAt: Date.now() });
  useEffect(() => {
    if (!targetId) return;
    const ac = new AbortController();
    const load = () => {
      const now = Date.now();
      const start = Math.floor((now - RecentWindowMs) / (RecentBucketSeconds * 1000)) * RecentBucketSeconds * 1000;
      dataPointBuckets(targetId, start, now, RecentBucketSeconds, false, ac.signal).then(
        (b) => !ac.signal.aborted && setData({ points: b?.Points ?? [], loadedAt: now }),
        // A card keeps its last data when a refresh fails; the state poll reports lost contact.
        () => undefined,
      );
    };
    load();
    const t = setInterval(load, RefreshMs);
    return () => (ac.abort(), clearInterval(t));
  }, [targetId]);
  return data;
}
