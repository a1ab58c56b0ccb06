// Bodies are JSON only. Clients often send `content-type: application/json` with an empty
// body on GET/DELETE/PATCH calls whose inputs are in the query: that is no body, not an error.
import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors.js';

export function installJsonParsing(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = (body as string).trim();
    if (!text) return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(badRequest('The request body is not valid JSON.'), undefined);
    }
  });
}
