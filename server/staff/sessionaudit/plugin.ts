// Session Audit's calls: GET /api/staff/sessionaudit (filter by account, user, active),
// DELETE /api/staff/sessionaudit/:id (revoke).
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../../account/authenticate.js';
import { recordId } from '../../http/schemas.js';
import { MaxStaffRows, StaffAccess } from '../access.js';
import { SignInSessionListSchema, SignInSessionSchema } from '../schemas.js';
import { listSignInSessions, revokeSignInSession, type SessionAuditDeps } from './service.js';

const listQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    accountId: recordId,
    userId: recordId,
    activeOnly: { type: 'boolean' },
    limit: { type: 'integer', minimum: 1, maximum: MaxStaffRows },
  },
} as const;

export default async function sessionAuditPlugin(app: FastifyInstance) {
  const deps: SessionAuditDeps = { store: app.store, events: app.events };
  app.get<{ Querystring: { accountId?: number; userId?: number; activeOnly?: boolean; limit?: number } }>(
    '/api/staff/sessionaudit',
    { config: { changesState: false, access: StaffAccess }, schema: { querystring: listQuery, response: { 200: SignInSessionListSchema } } },
    async (request) => {
      const { accountId, userId, activeOnly, limit = 200 } = request.query;
      return listSignInSessions(deps, { accountId, userId, activeOnly, limit });
    },
  );
  app.delete<{ Params: { id: number } }>(
    '/api/staff/sessionaudit/:id',
    { config: { access: StaffAccess }, schema: { params: { type: 'object', required: ['id'], properties: { id: recordId } }, response: { 200: SignInSessionSchema } } },
    async (request) => {
      const staff = requireUser(request);
      const revoked = await revokeSignInSession(deps, staff, request.params.id);
      request.log.info({ signInSession: revoked.Id, userId: revoked.UserId }, 'staff revoked a sign-in session');
      return revoked;
    },
  );
}
