// GET /api/data/DisplaySettings?configId: a REST twin of the hub's DisplaySettings(configId)
// (an addition to the spec's calls; see docs/api.md). GET /cmd/getsettingslist: the settings
// list items {id, name} of every configuration (spec 3 section 11; the control panel's
// Settings picker).
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../account/authenticate.js';
import { getDisplaySettings, listSettingsItems } from './service.js';

export default async function configurationsPlugin(app: FastifyInstance) {
  app.get<{ Querystring: { configId: number } }>(
    '/api/data/DisplaySettings',
    {
      // LiveShare visitors too: display thresholds are no secret of a target.
      config: { changesState: false, access: { visitor: true } },
      schema: {
        querystring: {
          type: 'object',
          required: ['configId'],
          properties: { configId: { type: 'integer', minimum: -2147483648, maximum: 2147483647 } },
        },
      },
    },
    async (request) => getDisplaySettings(app.store, requireUser(request), request.query.configId),
  );

  app.get('/cmd/getsettingslist', { config: { changesState: false, access: 'signedIn' } }, async (request) => {
    return listSettingsItems(app.store, requireUser(request).accountId);
  });
}
