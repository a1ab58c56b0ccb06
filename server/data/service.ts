// The data operations of spec 2 section 7 (DataPointBuckets, TraceGraphRows, ColumnDefs),
// built once per app over the store and the ingest pipeline's in-memory data of open
// sessions, and handed to both doors: the REST routes (plugin.ts) and /mainHub. The same
// inputs give the same answer whichever door they came through.
import type { Principal } from '../account/principal.js';
import { ColumnGridType, type ColumnDef, type GraphRowsResult } from '../contract/targets.js';
import type { DataPointBuckets } from '../contract/data.js';
import { parseTime } from '../http/time.js';
import type { Store } from '../store/db.js';
import { sessionFor } from '../targets/service.js';
import { dataPointBuckets } from './buckets.js';
import { columnDefs } from './column-defs.js';
import { traceGraphRows, type GraphRowsArgs, type RowsSource } from './graph-rows.js';
import type { RecentSource } from './sources.js';

/** DataPointBuckets as both doors receive it: times as ISO text or epoch ms. */
export interface BucketRequest {
  targetId: string;
  startTime: string | number;
  endTime: string | number;
  periodSeconds: number;
  includeJitter: boolean;
}

export interface DataService {
  dataPointBuckets(p: Principal, req: BucketRequest): Promise<DataPointBuckets>;
  traceGraphRows(p: Principal, args: GraphRowsArgs): Promise<GraphRowsResult>;
  /** A target id gives the single-target grid; a summary id ("SUM-n") the summary grid. */
  columnDefs(p: Principal, uniqueID: string): Promise<ColumnDef[]>;
}

/** `recent`: the ingest pipeline, whose memory answers the recent data of open sessions. */
export function createDataService(store: Store, recent?: RowsSource): DataService {
  return {
    dataPointBuckets: (p, req) =>
      dataPointBuckets(
        store,
        p,
        {
          targetId: req.targetId,
          startTime: parseTime(req.startTime, 'startTime'),
          endTime: parseTime(req.endTime, 'endTime'),
          periodSeconds: req.periodSeconds,
          includeJitter: req.includeJitter,
        },
        recent,
      ),
    traceGraphRows: (p, args) => traceGraphRows(store, p, args, recent),
    columnDefs: async (p, uniqueID) => {
      if (/^SUM-/i.test(uniqueID)) return columnDefs(ColumnGridType.Summary);
      await sessionFor(store, p, uniqueID);
      return columnDefs(ColumnGridType.SingleTarget);
    },
  };
}
