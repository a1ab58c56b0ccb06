// GET /api/openapi.json: an OpenAPI 3 document of every route, generated from the route
// schemas by @fastify/swagger (so it cannot drift from what the server validates). Every
// route gets the {"Error": ...} body for its 4xx answers. Served without sign-in: it holds
// the call shapes of the spec, no data (docs/api.md).
import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { SessionCookie } from '../account/login-sessions.js';
import { ErrorBodySchema } from './answers.js';

export const OpenApiPath = '/api/openapi.json';

/** Registers the generator; call before any route is added (it collects them as they come). */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Hopwatch API',
        version,
        description: 'The REST calls of the Hopwatch appliance. Errors answer {"Error": text}. The live calls are on the /mainHub SignalR hub (docs/hub.md).',
      },
      components: {
        securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: SessionCookie } },
      },
      security: [{ session: [] }],
    },
    transform: ({ schema, url }) => {
      const response = { ...((schema?.response as Record<string, unknown> | undefined) ?? {}) };
      response['4XX'] ??= { description: 'Refused: the reason is in Error.', ...ErrorBodySchema };
      return { schema: { ...schema, response }, url };
    },
  });
  // Answers keep exactly the fields the services return: response schemas document them
  // (above) but must not drop or coerce a field, so serialization is plain JSON.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  app.get(OpenApiPath, { config: { changesState: false, access: 'public' } }, async () => app.swagger());
}
