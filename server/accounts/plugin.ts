// The staff Accounts calls (/api/staff/accounts, Staff claim) and the account's own
// subscription (/api/subscription, UserManagement); cloud flavour only (404 otherwise).
import type { FastifyInstance } from 'fastify';
import { Claim } from '../contract/account.js';
import type { CreateAccountRequest, SetEntitlementsRequest, SuspendRequest } from '../contract/accounts.js';
import { requireUser, sessionTokenFrom } from '../account/authenticate.js';
import { recordId } from '../http/schemas.js';
import * as accounts from './service.js';
import { CreateAccountBody, CreatedAccountSchema, SetEntitlementsBody, StaffAccountListSchema, StaffAccountSchema, SubscriptionSchema, SuspendBody, HubTokenSchema } from './schemas.js';

const staff = { claim: Claim.Staff };
const idParams = { type: 'object', required: ['id'], properties: { id: recordId } } as const;

/** Registered after the agents plugin: the subscription reads its links and settings. */
export default async function accountsPlugin(app: FastifyInstance) {
  const deps: accounts.AccountsDeps = {
    store: app.store,
    config: app.config,
    events: app.events,
    defaultEntitledTraces: app.agents.settings.entitledTraces,
    isAgentOnline: (id) => app.agents.links.isOnline(id),
    pauseTrace: (id) => app.agents.runner.agent.pause(id),
  };

  app.get('/api/staff/accounts', { config: { changesState: false, access: staff }, schema: { response: { 200: StaffAccountListSchema } } }, async (request) =>
    accounts.listAccounts(deps, requireUser(request)),
  );

  app.post<{ Body: CreateAccountRequest }>(
    '/api/staff/accounts',
    { config: { access: staff }, schema: { body: CreateAccountBody, response: { 200: CreatedAccountSchema } } },
    async (request) => accounts.createAccount(deps, requireUser(request), request.body),
  );

  app.patch<{ Params: { id: number }; Body: SetEntitlementsRequest }>(
    '/api/staff/accounts/:id',
    { config: { access: staff }, schema: { params: idParams, body: SetEntitlementsBody, response: { 200: StaffAccountSchema } } },
    async (request) => accounts.setEntitlements(deps, requireUser(request), request.params.id, request.body),
  );

  app.post<{ Params: { id: number }; Body: SuspendRequest }>(
    '/api/staff/accounts/:id/suspend',
    { config: { access: staff }, schema: { params: idParams, body: SuspendBody, response: { 200: StaffAccountSchema } } },
    async (request) => accounts.suspendAccount(deps, requireUser(request), request.params.id, request.body),
  );

  // The cloud console's hub connection sends a bearer token (spec 3 section 7.5): the caller's
  // own session token, read by the console only to hand it to the hub (docs/accounts.md).
  app.get(
    '/api/Account/HubToken',
    { config: { changesState: false, access: 'signedIn' }, schema: { response: { 200: HubTokenSchema } } },
    async (request, reply) => {
      const token = accounts.hubToken(deps, requireUser(request), sessionTokenFrom(request.headers.cookie));
      // Never kept by a cache on the way.
      reply.header('cache-control', 'no-store');
      return token;
    },
  );

  app.get(
    '/api/subscription',
    { config: { changesState: false, access: { claim: Claim.UserManagement } }, schema: { response: { 200: SubscriptionSchema } } },
    async (request) => accounts.getSubscription(deps, requireUser(request)),
  );
}
