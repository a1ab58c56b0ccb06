// Turns every failure into {"Error": "..."} with the right status; bad input never crashes.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from './errors.js';
import { securityHeadersFor } from './security-headers.js';

function validationText(err: FastifyError): string {
  const first = err.validation?.[0];
  if (!first) return err.message;
  const where = err.validationContext ?? 'request';
  const path = first.instancePath ? first.instancePath.replace(/^\//, '').replace(/\//g, '.') : '';
  const missing = (first.params as { missingProperty?: string } | undefined)?.missingProperty;
  if (missing) return `The ${where} is missing "${missing}".`;
  return `The ${where}${path ? ` field "${path}"` : ''} ${first.message ?? 'is not valid'}.`;
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof HttpError) {
      reply.headers(err.headers).code(err.status).send({ Error: err.message });
      return;
    }
    if (err.validation) {
      reply.code(400).send({ Error: validationText(err) });
      return;
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const text =
        err.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
          ? 'The request body is too large.'
          : err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
            ? 'The request body must be JSON.'
            : err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
              ? 'The request body is empty; JSON was expected.'
              : err.message;
      reply.code(status).send({ Error: text });
      return;
    }
    request.log.error({ err }, 'request failed');
    reply.code(500).send({ Error: 'An internal error occurred; it has been logged.' });
  });
}

/**
 * Fastify's `frameworkErrors`: the router's refusals before any route or hook runs (a path
 * with a malformed escape, a path parameter over the length limit), answered like the rest.
 */
export function answerFrameworkError(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400;
  const text =
    err.code === 'FST_ERR_BAD_URL'
      ? 'The address has a malformed percent-escape.'
      : err.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? 'A part of the address is too long.'
        : err.message;
  reply.headers(securityHeadersFor(request.url)).code(status).send({ Error: text });
}
