// GET /api/data/DisplaySettings?configId: a REST twin of the hub's DisplaySettings(configId)
// (an addition to the spec's calls; see docs/api.md).
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../account/authenticate.js';
import { getDisplaySettings } from './service.js';

export default async function configurationsPlugin(app: FastifyInstance) {
  app.get<{ Querystring: { configId: number } }>(
    '/api/data/DisplaySettings',
    {
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
}
