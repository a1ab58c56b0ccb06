// Key-value calls (spec 1 section 7, spec 3 section 11) and GET /api/data/GetDefaultTraceHistory.
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../account/authenticate.js';
import { badRequest } from '../http/errors.js';
import * as kvp from './service.js';
import { getDefaultTraceHistory } from './trace-history.js';
import { Claim } from '../contract/account.js';

const type = { type: 'string', minLength: 1, maxLength: 32 } as const;
const keyName = { type: 'string', maxLength: 1024 } as const;

export default async function kvpPlugin(app: FastifyInstance) {
  const deps: kvp.KvpDeps = { store: app.store };

  app.get<{ Querystring: { Type: string; KeyName: string } }>(
    '/api/kvp/get',
    { config: { changesState: false, access: 'signedIn' }, schema: { querystring: { type: 'object', required: ['Type', 'KeyName'], properties: { Type: type, KeyName: keyName } } } },
    async (request, reply) => {
      const value = await kvp.getKvp(deps, requireUser(request), { type: request.query.Type, keyName: request.query.KeyName });
      // Sent as JSON text ourselves: the answer is a JSON string, or null when nothing is stored.
      return reply.type('application/json; charset=utf-8').send(JSON.stringify(value));
    },
  );

  app.put<{ Querystring: { Type: string; KeyName: string; Value?: string }; Body: string | { Value: string } | undefined }>(
    '/api/kvp/set',
    {
      config: { access: { note: 'Account scope needs UserManagement, except the onboarding keys' } },
      bodyLimit: 512 * 1024,
      schema: {
        querystring: {
          type: 'object',
          required: ['Type', 'KeyName'],
          properties: { Type: type, KeyName: keyName, Value: { type: 'string' } },
        },
      },
      // Validated here rather than by schema so that "no body" stays allowed.
      preValidation: async (request) => {
        const body = request.body;
        if (body === undefined || body === null) return;
        if (typeof body === 'string') return;
        if (typeof body === 'object' && typeof (body as { Value?: unknown }).Value === 'string') return;
        throw badRequest('The body must be the value as a JSON string, or {"Value": "..."}.');
      },
    },
    async (request, reply) => {
      const p = requireUser(request);
      const body = request.body;
      const value = request.query.Value ?? (typeof body === 'string' ? body : body?.Value);
      if (value === undefined) throw badRequest('Value is required (in the query, or in the body for long values).');
      await kvp.setKvp(deps, p, { type: request.query.Type, keyName: request.query.KeyName, value });
      return reply.code(204).send();
    },
  );

  // Resets the onboarding flags (a spec GET that writes).
  app.get('/api/kvp', { config: { changesState: true, access: { claim: Claim.SettingsManagement } } }, async (request, reply) => {
    await kvp.resetOnboarding(deps, requireUser(request));
    return reply.code(204).send();
  });

  app.get('/api/data/GetDefaultTraceHistory', { config: { changesState: false, access: 'signedIn' } }, async (request) => getDefaultTraceHistory(app.store, requireUser(request)));
}
