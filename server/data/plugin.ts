// /api/data routes of spec 2 section 7: DataPointBuckets, ColumnDefs, TraceGraphRows.
import type { FastifyInstance } from 'fastify';
import type { TargetListType, GraphRowsRequest } from '../contract/targets.js';
import { requireUser } from '../account/authenticate.js';
import { badRequest } from '../http/errors.js';
import { DataPointBucketsSchema } from '../openapi/answers.js';
import { queryKernels } from './kernels.js';
import { columnNameListArg, includeJitterArg, listTypeArg, periodSecondsArg, targetIdArg, timeArg } from './schemas.js';
import type { DataService } from './service.js';

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

// The reads below are open to LiveShare visitors too (access.visitor): the data service keeps a
// visitor to its link's targets (server/liveshare/scope.ts).
export default async function dataPlugin(app: FastifyInstance, opts: { data: DataService }) {
  const { data } = opts;
  // Compile the query kernels now, not in the first user's call.
  queryKernels();

  app.get<{ Querystring: { targetId: string; startTime: string; endTime: string; periodSeconds: number; includeJitter: boolean } }>(
    '/api/data/DataPointBuckets',
    {
      config: { changesState: false, access: { visitor: true } },
      schema: {
        response: { 200: DataPointBucketsSchema },
        querystring: {
          type: 'object',
          required: ['targetId', 'startTime', 'endTime', 'periodSeconds', 'includeJitter'],
          properties: { targetId: targetIdArg, startTime: timeArg, endTime: timeArg, periodSeconds: periodSecondsArg, includeJitter: includeJitterArg },
        },
      },
    },
    async (request) => data.dataPointBuckets(requireUser(request), request.query),
  );

  app.get<{ Querystring: { uniqueID: string } }>(
    '/api/data/ColumnDefs',
    { config: { changesState: false, access: { visitor: true } }, schema: { querystring: { type: 'object', required: ['uniqueID'], properties: { uniqueID: targetIdArg } } } },
    async (request) => data.columnDefs(requireUser(request), String(request.query.uniqueID)),
  );

  app.get<{ Querystring: Record<string, string | string[]> }>(
    '/api/data/TraceGraphRows',
    {
      config: { changesState: false, access: { visitor: true } },
      schema: {
        querystring: {
          type: 'object',
          required: ['listType', 'uniqueID'],
          properties: {
            listType: listTypeArg,
            uniqueID: targetIdArg,
            // REST also takes the names comma-separated in one value.
            columnNames: { anyOf: [{ type: 'string', maxLength: 20_000 }, columnNameListArg] },
          },
        },
      },
    },
    async (request) => {
      const q = request.query;
      const columnNames = q.columnNames === undefined ? [] : Array.isArray(q.columnNames) ? q.columnNames : String(q.columnNames).split(',');
      return data.traceGraphRows(requireUser(request), {
        requests: indexedRequests(q),
        columnNames,
        listType: q.listType as (typeof TargetListType)[number],
        uniqueID: String(q.uniqueID),
      });
    },
  );
}
