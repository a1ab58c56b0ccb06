// The Sidekick calls of spec 3 section 7.2 (/api/Sidekick/...). Any signed-in user may ask;
// the services answer by the licence (Disabled state, or 409 for the calls that act).
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../account/authenticate.js';
import { serverUrlOf } from '../agents/plugin.js';
import { SidekickPlannedSourceListSchema, SidekickShareUrlListSchema, SidekickStateSchema } from '../openapi/answers.js';
import { plannedSources } from './plan.js';
import type { DataService } from '../data/service.js';
import type { TargetDeps } from '../targets/service.js';
import * as sidekick from './service.js';

const note = 'the service answers 409 without the Sidekick licence or a non-trial Professional licence';
const agentId = { type: 'integer', minimum: -1, maximum: 2147483647 } as const;

export default async function sidekickPlugin(app: FastifyInstance, opts: { targets: TargetDeps; data: DataService }) {
  const deps: sidekick.SidekickDeps = { store: app.store, events: app.events, config: app.config, targets: opts.targets, data: opts.data };
  app.addHook('onClose', () => sidekick.stopDiscoveries());

  app.get('/api/Sidekick/SidekickState', { config: { changesState: false, access: 'signedIn' }, schema: { response: { 200: SidekickStateSchema } } }, async (request) =>
    sidekick.sidekickState(deps, requireUser(request)),
  );

  // What Get Started will trace (the welcome screen lists it first): reads files, probes nothing.
  app.get<{ Querystring: { agentId?: number } }>(
    '/api/Sidekick/PlannedSources',
    {
      config: { changesState: false, access: { note } },
      schema: { querystring: { type: 'object', additionalProperties: false, properties: { agentId } }, response: { 200: SidekickPlannedSourceListSchema } },
    },
    async (request) => plannedSources(deps, requireUser(request), { agentId: request.query.agentId }),
  );

  // A GET that starts traces: refused when another site sends it (changesState).
  app.get<{ Querystring: { agentId?: number } }>(
    '/api/Sidekick/StartDiscovery',
    { config: { changesState: true, access: { note } }, schema: { querystring: { type: 'object', additionalProperties: false, properties: { agentId } } } },
    async (request, reply) => {
      await sidekick.startDiscovery(deps, requireUser(request), { agentId: request.query.agentId });
      return reply.code(204).send();
    },
  );

  // Makes the LiveShare links the first time: a state-changing GET too.
  app.get(
    '/api/Sidekick/GetShareUrlsForSidekickTargets',
    { config: { changesState: true, access: { note } }, schema: { response: { 200: SidekickShareUrlListSchema } } },
    async (request) => sidekick.shareUrls(deps, requireUser(request), { address: request.ip, serverUrl: serverUrlOf(request) }),
  );
}
