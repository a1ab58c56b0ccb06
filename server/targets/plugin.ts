// /cmd routes for targets (spec 2 section 7).
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../account/authenticate.js';
import { int32, recordId } from '../http/schemas.js';
import { TargetIdResultSchema } from '../openapi/answers.js';
import * as targets from './service.js';
import { Claim } from '../contract/account.js';

const idQuery = { type: 'object', required: ['ID'], properties: { ID: { type: 'string', minLength: 1, maxLength: 64 } } } as const;
/** Every call here starts, stops or changes a trace (spec GETs): refused when another site sends it. */
const changesState = { changesState: true, access: { claim: Claim.TargetManagement } };

export default async function targetsPlugin(app: FastifyInstance, deps: targets.TargetDeps) {
  app.get<{ Querystring: { target: string; configID?: number; traceInterval?: number; agentID?: number } }>(
    '/cmd/newtarget',
    {
      config: changesState,
      schema: {
        response: { 200: TargetIdResultSchema },
        querystring: {
          type: 'object',
          required: ['target'],
          properties: {
            target: { type: 'string', maxLength: 300 },
            configID: recordId,
            // Seconds, as TraceInterval everywhere else in the spec (2.5 by default).
            traceInterval: { type: 'number', exclusiveMinimum: 0 },
            agentID: int32,
          },
        },
      },
    },
    async (request) => {
      const q = request.query;
      return targets.newTarget(deps, requireUser(request), {
        target: q.target,
        configId: q.configID,
        traceIntervalSeconds: q.traceInterval,
        agentId: q.agentID,
      });
    },
  );

  const simple = (path: string, op: (p: ReturnType<typeof requireUser>, id: string) => Promise<unknown>) =>
    app.get<{ Querystring: { ID: string } }>(path, { config: changesState, schema: { querystring: idQuery } }, async (request, reply) => {
      const result = await op(requireUser(request), request.query.ID);
      if (result === undefined) return reply.code(204).send();
      return result;
    });
  simple('/cmd/stoptrace', (p, id) => targets.stopTrace(deps, p, id));
  simple('/cmd/resumetrace', (p, id) => targets.resumeTrace(deps, p, id));
  simple('/cmd/resettrace', (p, id) => targets.resetTrace(deps, p, id));
  simple('/cmd/close', (p, id) => targets.closeTarget(deps, p, id));

  app.get<{ Querystring: { Ids: string[] } }>(
    '/cmd/finalHop',
    {
      config: changesState,
      schema: {
        querystring: {
          type: 'object',
          required: ['Ids'],
          properties: { Ids: { type: 'array', minItems: 1, maxItems: 1000, items: { type: 'string', maxLength: 64 } } },
        },
      },
    },
    async (request, reply) => {
      await targets.finalHop(deps, requireUser(request), request.query.Ids);
      return reply.code(204).send();
    },
  );

  app.get<{ Querystring: { webId: string; configId: number } }>(
    '/cmd/updateConfigurationId',
    {
      config: changesState,
      schema: {
        querystring: {
          type: 'object',
          required: ['webId', 'configId'],
          properties: { webId: { type: 'string', maxLength: 64 }, configId: recordId },
        },
      },
    },
    async (request, reply) => {
      await targets.updateConfigurationId(deps, requireUser(request), request.query.webId, request.query.configId);
      return reply.code(204).send();
    },
  );

  app.get<{ Querystring: { webId: string; traceIntervalInMS: number } }>(
    '/cmd/updateTraceInterval',
    {
      config: changesState,
      schema: {
        querystring: {
          type: 'object',
          required: ['webId', 'traceIntervalInMS'],
          properties: { webId: { type: 'string', maxLength: 64 }, traceIntervalInMS: { type: 'number', exclusiveMinimum: 0 } },
        },
      },
    },
    async (request, reply) => {
      await targets.updateTraceInterval(deps, requireUser(request), request.query.webId, request.query.traceIntervalInMS);
      return reply.code(204).send();
    },
  );
}
