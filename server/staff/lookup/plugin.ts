// Lookup's call: GET /api/staff/lookup?text=...
import type { FastifyInstance } from 'fastify';
import { badRequest } from '../../http/errors.js';
import { MaxStaffRows, StaffAccess } from '../access.js';
import { LookupMatchListSchema } from '../schemas.js';
import { lookup } from './repository.js';

/** Shorter texts match too much to say anything (a single letter is in every e-mail); digits are ids. */
export const LookupMinLength = 2;

export default async function lookupPlugin(app: FastifyInstance) {
  app.get<{ Querystring: { text: string; limit?: number } }>(
    '/api/staff/lookup',
    {
      config: { changesState: false, access: StaffAccess },
      schema: {
        querystring: {
          type: 'object',
          required: ['text'],
          additionalProperties: false,
          properties: { text: { type: 'string', maxLength: 320 }, limit: { type: 'integer', minimum: 1, maximum: MaxStaffRows } },
        },
        response: { 200: LookupMatchListSchema },
      },
    },
    async (request) => {
      const text = request.query.text.trim();
      // An id (agent, account) may be a single digit.
      if (text.length < LookupMinLength && !/^\d+$/.test(text)) throw badRequest(`Type at least ${LookupMinLength} characters to look up.`);
      return app.store.read((q) => lookup(q, text, request.query.limit ?? 100));
    },
  );
}
