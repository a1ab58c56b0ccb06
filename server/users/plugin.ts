// Routes of spec 1 section 7 "Web users", under /api/user.
import type { FastifyInstance } from 'fastify';
import type { WebUser } from '../contract/users.js';
import { requireUser } from '../account/authenticate.js';
import { recordId } from '../http/schemas.js';
import { badRequest } from '../http/errors.js';
import { emailAddressArg } from './email-address.js';
import { fieldsBody, fromQueryOrBody, passwordArg } from '../account/password-fields.js';
import * as users from './service.js';
import { Claim } from '../contract/account.js';

// The address's content is checked by the service that sets it (createWebUser, one valid
// mailbox). The update sends the whole user back but changes only its Roles, so a user
// stored before addresses were checked can still have their roles changed.
const webUserBody = {
  type: 'object',
  required: ['EmailAddress'],
  properties: {
    Id: { type: 'integer' },
    Name: { type: 'string', maxLength: 256 },
    EmailAddress: emailAddressArg,
    Roles: { type: 'array', maxItems: 64, items: { type: 'string', maxLength: 64 } },
    IsRoot: { type: 'boolean' },
  },
} as const;
/** Every web-user call needs UserManagement (spec 1 section 6). */
const manage = { claim: Claim.UserManagement };
/** Creation takes the password in the query (the spec) or as `password` in the body (the console). */
const newWebUserBody = { ...webUserBody, properties: { ...webUserBody.properties, password: passwordArg } } as const;
const setPasswordFields = { id: recordId, newPassword: passwordArg } as const;
const idParams = { type: 'object', required: ['id'], properties: { id: recordId } } as const;

export default async function usersPlugin(app: FastifyInstance) {
  const deps: users.UserDeps = { store: app.store, events: app.events };

  app.get('/api/user/api/roles', { config: { changesState: false, access: manage } }, async (request) => users.listRoles(requireUser(request)));

  app.get<{ Querystring: { filter?: string } }>(
    '/api/user',
    { config: { changesState: false, access: manage }, schema: { querystring: { type: 'object', properties: { filter: { type: 'string', maxLength: 256 } } } } },
    async (request) => users.listWebUsers(deps, requireUser(request), request.query.filter),
  );

  app.post<{ Querystring: { password?: string }; Body: WebUser & { password?: string } }>(
    '/api/user',
    {
      config: { access: manage },
      schema: {
        querystring: { type: 'object', properties: { password: passwordArg } },
        body: newWebUserBody,
      },
    },
    async (request) => users.createWebUser(deps, requireUser(request), request.body, fromQueryOrBody<string>(request, 'password')),
  );

  // PATCH /api/user?id&newPassword changes another user's password; the console sends both
  // in a JSON body instead (server/account/password-fields.ts).
  app.patch<{ Querystring: { id?: number; newPassword?: string }; Body: { id?: number; newPassword?: string } | null }>(
    '/api/user',
    {
      config: { access: manage },
      schema: { querystring: { type: 'object', properties: setPasswordFields }, body: fieldsBody(setPasswordFields) },
    },
    async (request, reply) => {
      const id = fromQueryOrBody<number>(request, 'id');
      if (id === undefined) throw badRequest('The user id (id) is required.');
      await users.setWebUserPassword(deps, requireUser(request), id, fromQueryOrBody<string>(request, 'newPassword'));
      return reply.code(204).send();
    },
  );

  // POST /api/user/SendActivationLink: server/activation/plugin.ts.

  app.get<{ Params: { id: number } }>('/api/user/:id', { config: { changesState: false, access: manage }, schema: { params: idParams } }, async (request) =>
    users.getWebUser(deps, requireUser(request), request.params.id),
  );

  app.patch<{ Params: { id: number }; Body: WebUser }>(
    '/api/user/:id',
    { config: { access: manage }, schema: { params: idParams, body: webUserBody } },
    async (request) => users.updateWebUser(deps, requireUser(request), request.params.id, request.body),
  );

  app.delete<{ Params: { id: number } }>('/api/user/:id', { config: { access: manage }, schema: { params: idParams } }, async (request, reply) => {
    await users.deleteWebUser(deps, requireUser(request), request.params.id);
    return reply.code(204).send();
  });
}
