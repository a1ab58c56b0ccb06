// The grid rows of one target: TraceGraphRows over the statistics focus, read again as the
// hub reports new samples (HostUpdated, batched every 150 ms), route changes (RouteChanged)
// and focus changes (debounced 100 ms), while the target's samples group is joined.
import { keepRegistered, subscribe } from '../hub/connection';
import { traceGraphRows } from './api';
import type { TimeRange } from './logic/graphTimeState';
import { sessionIdOf } from './logic/rowId';
import { useLiveRows, type LiveRowsSource, type RowsState } from './useLiveRows';

export type { RowsState };

const targetRows: LiveRowsSource = {
  read: traceGraphRows,
  live: (targetId, on) => {
    const offHost = subscribe('HostUpdated', (rowId, time) => sessionIdOf(String(rowId)) === targetId && on.sample(time));
    const offRoute = subscribe('RouteChanged', (rowId) => sessionIdOf(String(rowId)) === targetId && on.changed());
    const leave = keepRegistered('RegisterForNewSamples', 'UnregisterForNewSamples', targetId);
    return () => {
      offHost();
      offRoute();
      leave();
    };
  },
};

export function useTargetRows(targetId: string | undefined, range: TimeRange, onNewSamples: (newestMs: number) => void): { rows: RowsState; refresh: () => void } {
  return useLiveRows(targetId, range, onNewSamples, targetRows);
}
