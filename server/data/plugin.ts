// /api/data routes of spec 2 section 7: DataPointBuckets, ColumnDefs, TraceGraphRows.
import type { FastifyInstance } from 'fastify';
import { ColumnGridType, TargetListType, type GraphRowsRequest } from '../contract/targets.js';
import { requireUser } from '../account/authenticate.js';
import { badRequest } from '../http/errors.js';
import { sessionFor } from '../targets/service.js';
import { dataPointBuckets, MaxPeriodSeconds } from './buckets.js';
import { columnDefs } from './column-defs.js';
import { traceGraphRows } from './graph-rows.js';
import { queryKernels } from './kernels.js';

/** Epoch milliseconds or an ISO date-time. */
export function parseTimeParam(name: string, text: string): number {
  const n = Number(text);
  const t = text.trim() !== '' && Number.isFinite(n) ? n : Date.parse(text);
  if (!Number.isFinite(t)) throw badRequest(`${name} "${text}" is not a time (epoch ms or ISO 8601).`);
  return t;
}

/** Reads requests[0].ID, requests[0].Start... (and requests[0][ID]) from a flat query. */
export function indexedRequests(query: Record<string, unknown>): GraphRowsRequest[] {
  const out: GraphRowsRequest[] = [];
  for (const [key, value] of Object.entries(query)) {
    const m = /^requests\[(\d+)\](?:\.|\[)(ID|Start|End)\]?$/.exec(key);
    if (!m) continue;
    const i = Number(m[1]);
    if (i > 1000) throw badRequest('At most 1000 requests.');
    out[i] ??= { ID: '' };
    out[i][m[2] as 'ID' | 'Start' | 'End'] = String(value);
  }
  return out.filter(Boolean);
}

export default async function dataPlugin(app: FastifyInstance) {
  const store = app.store;
  // The ingest pipeline's memory of open sessions answers their recent data.
  const recent = app.traces?.ingest;
  // Compile the query kernels now, not in the first user's call.
  queryKernels();

  app.get<{ Querystring: { targetId: string; startTime: string; endTime: string; periodSeconds: number; includeJitter: boolean } }>(
    '/api/data/DataPointBuckets',
    {
      config: { changesState: false },
      schema: {
        querystring: {
          type: 'object',
          required: ['targetId', 'startTime', 'endTime', 'periodSeconds', 'includeJitter'],
          properties: {
            targetId: { type: 'string', maxLength: 64 },
            startTime: { type: 'string', maxLength: 64 },
            endTime: { type: 'string', maxLength: 64 },
            periodSeconds: { type: 'number', exclusiveMinimum: 0, maximum: MaxPeriodSeconds },
            includeJitter: { type: 'boolean' },
          },
        },
      },
    },
    async (request) => {
      const q = request.query;
      return dataPointBuckets(store, requireUser(request), {
        targetId: q.targetId,
        startTime: parseTimeParam('startTime', q.startTime),
        endTime: parseTimeParam('endTime', q.endTime),
        periodSeconds: q.periodSeconds,
        includeJitter: q.includeJitter,
      }, recent);
    },
  );

  app.get<{ Querystring: { uniqueID: string } }>(
    '/api/data/ColumnDefs',
    { config: { changesState: false }, schema: { querystring: { type: 'object', required: ['uniqueID'], properties: { uniqueID: { type: 'string', maxLength: 64 } } } } },
    async (request) => {
      const p = requireUser(request);
      const id = request.query.uniqueID;
      // A target id gives the single-target grid; a summary id (SUM-n or a summary's id) the summary grid.
      if (/^SUM-/i.test(id)) return columnDefs(ColumnGridType.Summary);
      await sessionFor(store, p, id);
      return columnDefs(ColumnGridType.SingleTarget);
    },
  );

  app.get<{ Querystring: Record<string, string | string[]> }>(
    '/api/data/TraceGraphRows',
    {
      config: { changesState: false },
      schema: {
        querystring: {
          type: 'object',
          required: ['listType', 'uniqueID'],
          properties: {
            listType: { type: 'string', enum: [...TargetListType] },
            uniqueID: { type: 'string', maxLength: 64 },
            columnNames: { anyOf: [{ type: 'string', maxLength: 20_000 }, { type: 'array', maxItems: 200, items: { type: 'string', maxLength: 100 } }] },
          },
        },
      },
    },
    async (request) => {
      const q = request.query;
      const columnNames = q.columnNames === undefined ? [] : Array.isArray(q.columnNames) ? q.columnNames : String(q.columnNames).split(',');
      return traceGraphRows(store, requireUser(request), {
        requests: indexedRequests(q),
        columnNames,
        listType: q.listType as (typeof TargetListType)[number],
        uniqueID: String(q.uniqueID),
      }, recent);
    },
  );
}
