// Bodies are JSON only. Clients often send `content-type: application/json` with an empty
// body on GET/DELETE/PATCH calls whose inputs are in the query: that is no body, not an error.
// A body nested deeper than any call needs is refused here, before anything walks it.
import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors.js';
import { jsonDepthExceeds, TooDeepText } from './json-depth.js';

export function installJsonParsing(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = (body as string).trim();
    if (!text) return done(null, undefined);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return done(badRequest('The request body is not valid JSON.'), undefined);
    }
    if (jsonDepthExceeds(value)) return done(badRequest(`The request body is not accepted: ${TooDeepText}`), undefined);
    done(null, value);
  });
}
