// Users and Events' calls: GET /api/staff/users?search= and GET /api/staff/userandevents/:userId.
import type { FastifyInstance } from 'fastify';
import { UserEventKind } from '../../contract/staff.js';
import { recordId } from '../../http/schemas.js';
import { MaxStaffRows, StaffAccess } from '../access.js';
import { StaffUserListSchema, UserEventListSchema } from '../schemas.js';
import { findUsers, userEvents } from './service.js';

const limit = { type: 'integer', minimum: 1, maximum: MaxStaffRows } as const;

export default async function userAndEventsPlugin(app: FastifyInstance) {
  app.get<{ Querystring: { search?: string; limit?: number } }>(
    '/api/staff/users',
    {
      config: { changesState: false, access: StaffAccess },
      schema: {
        querystring: { type: 'object', additionalProperties: false, properties: { search: { type: 'string', maxLength: 320 }, limit } },
        response: { 200: StaffUserListSchema },
      },
    },
    async (request) => findUsers(app.store, request.query.search ?? '', request.query.limit ?? 100),
  );
  app.get<{ Params: { userId: number }; Querystring: { kind?: UserEventKind; limit?: number } }>(
    '/api/staff/userandevents/:userId',
    {
      config: { changesState: false, access: StaffAccess },
      schema: {
        params: { type: 'object', required: ['userId'], properties: { userId: recordId } },
        querystring: { type: 'object', additionalProperties: false, properties: { kind: { type: 'string', enum: Object.values(UserEventKind) }, limit } },
        response: { 200: UserEventListSchema },
      },
    },
    async (request) => userEvents(app.store, request.params.userId, request.query.limit ?? 200, request.query.kind),
  );
}
