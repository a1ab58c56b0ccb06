// Liveness (/healthz: the process answers) and readiness (/readyz: the store answers and the
// server is not shutting down; with Redis away it stays ready and says so in Detail).
import type { FastifyInstance } from 'fastify';
import { HealthSchema } from '../openapi/answers.js';

export default async function healthPlugin(app: FastifyInstance, opts: { isShuttingDown: () => boolean }) {
  app.get('/healthz', { config: { access: 'public' }, schema: { response: { 200: HealthSchema } } }, async () => ({ Status: 'ok' }));
  app.get('/readyz', { config: { access: 'public' } }, async (_request, reply) => {
    if (opts.isShuttingDown()) return reply.code(503).send({ Error: 'Shutting down.' });
    try {
      await app.store.one('SELECT 1 AS ok');
    } catch {
      return reply.code(503).send({ Error: 'The database does not answer.' });
    }
    // Without Redis a replica still serves its own connections: ready, and it says what it lacks.
    const redis = app.cluster?.problem();
    return redis ? { Status: 'ready', Detail: redis } : { Status: 'ready' };
  });
}
