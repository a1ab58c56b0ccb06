// Liveness (/healthz: the process answers) and readiness (/readyz: the store answers and the
// server is not shutting down). On PostgreSQL /readyz waits for the database (503 until it
// answers) and says in its detail whether this replica leads the once-only work
// (server/cluster/leadership.ts): a follower is ready too, it serves consoles and agents. With
// Redis away it stays ready and says so in Detail.
import type { FastifyInstance } from 'fastify';
import { HealthSchema } from '../openapi/answers.js';
import type { Leadership } from '../cluster/leadership.js';

/** /readyz's detail: the database and the once-only work's lease. */
export function readinessDetail(leadership: Leadership, database: 'ok' | 'unreachable') {
  const l = leadership.state();
  return {
    Database: database,
    Leadership: {
      Leader: l.leader,
      Kind: l.kind,
      Since: new Date(l.since).toISOString(),
      ...(l.reason ? { Reason: l.reason } : {}),
    },
  };
}

export default async function healthPlugin(app: FastifyInstance, opts: { isShuttingDown: () => boolean; leadership: Leadership }) {
  app.get('/healthz', { config: { access: 'public' }, schema: { response: { 200: HealthSchema } } }, async () => ({ Status: 'ok' }));
  app.get('/readyz', { config: { access: 'public' } }, async (_request, reply) => {
    if (opts.isShuttingDown()) return reply.code(503).send({ Error: 'Shutting down.' });
    try {
      await app.store.one('SELECT 1 AS ok');
    } catch {
      return reply.code(503).send({ Error: 'The database does not answer.', Detail: readinessDetail(opts.leadership, 'unreachable') });
    }
    // Without Redis a replica still serves its own connections: ready, and it says what it lacks.
    const redis = app.cluster?.problem();
    return { Status: 'ready', Detail: { ...readinessDetail(opts.leadership, 'ok'), ...(redis ? { Redis: redis } : {}) } };
  });
}
