// Every number a route receives is finite. Fastify's validator (ajv 8) coerces a query or body
// text to the number its schema asks for with `+text`, and '1E400' or 'Infinity' becomes
// Infinity, which passes `type: integer` with any `maximum` (ajv skips the bound for a
// non-finite number). An Infinity then reached SQL text (issue 39 item 9: "IN (Infinity)", a
// 500). JSON.parse reads the literal 1E400 as Infinity too. Checked once here, after
// validation, for every route, instead of in each schema.
import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors.js';

/** The path of the first non-finite number in `value` (depth-bounded by the JSON parser). */
export function nonFiniteAt(value: unknown, path: string): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : path;
  if (value === null || typeof value !== 'object') return undefined;
  // Parsed JSON, query and path objects (the router's params have a prototype of their own),
  // not an uploaded Buffer or a stream.
  if (ArrayBuffer.isView(value) || typeof (value as { pipe?: unknown }).pipe === 'function') return undefined;
  for (const [k, v] of Object.entries(value)) {
    const found = nonFiniteAt(v, path ? `${path}.${k}` : k);
    if (found) return found;
  }
  return undefined;
}

export function installFiniteNumbers(app: FastifyInstance): void {
  app.addHook('preHandler', async (request) => {
    for (const [where, value] of [
      ['query', request.query],
      ['path', request.params],
      ['body', request.body],
    ] as const) {
      const at = nonFiniteAt(value, '');
      if (at !== undefined) throw badRequest(`The ${where}${at ? ` field "${at}"` : ''} is not a finite number.`);
    }
  });
}
