// Passwords a call sets (PATCH /api/Account, PATCH /api/user, POST /api/user) travel in the
// URL query in the spec's form, which reverse proxies write to their access logs (issue 39
// item 16). The same fields are accepted in a JSON body, with the same schema; the console
// sends them there. A field given in both places must have the same value in both.
import type { FastifyRequest } from 'fastify';
import { badRequest } from '../http/errors.js';

/** The schema of a password field, in the query and in the body alike. */
export const passwordArg = { type: 'string', maxLength: 1024 } as const;

/**
 * A body schema of these fields, for a call that had them in the query only. An empty body is
 * no body (server/http/json-body.ts), so the spec's query-only form still validates.
 */
export function fieldsBody<P extends Record<string, unknown>>(properties: P) {
  return { type: ['object', 'null'], additionalProperties: false, properties } as const;
}

/** `name` from the JSON body or the query; a 400 when both hold different values. */
export function fromQueryOrBody<T>(request: FastifyRequest, name: string): T | undefined {
  const query = request.query as Record<string, unknown> | undefined;
  const body = request.body !== null && typeof request.body === 'object' ? (request.body as Record<string, unknown>) : undefined;
  const inQuery = query?.[name];
  const inBody = body?.[name];
  if (inQuery !== undefined && inBody !== undefined && inQuery !== inBody) {
    throw badRequest(`${name} is given in the query and in the body with different values: send it once, in the body.`);
  }
  return (inBody ?? inQuery) as T | undefined;
}
