// What the log says about requests. At info an operator reads what happened (sign-ins,
// traces, errors, slow requests), not every poll: one open target window makes thousands of
// requests an hour. Each request is one line at debug; a request slower than
// HOPWATCH_SLOW_REQUEST_MS is one line at info; a 5xx is logged at error by the error handler.
import type { FastifyInstance } from 'fastify';

export function installRequestLog(app: FastifyInstance, slowRequestMs: number): void {
  app.addHook('onResponse', async (request, reply) => {
    const slow = reply.elapsedTime >= slowRequestMs;
    // Every request passes here: build the line only when it is written.
    if (!slow && request.log.level !== 'debug' && request.log.level !== 'trace') return;
    const line = { req: request, res: reply, responseTime: Math.round(reply.elapsedTime) };
    if (slow) request.log.info(line, 'slow request');
    else request.log.debug(line, 'request completed');
  });
}
