// Routes of impersonation (issue 26; the console's /impersonate and /clearimpersonation),
// and the hook that writes every state-changing REST call made while impersonating.
import type { FastifyInstance } from 'fastify';
import { Claim } from '../contract/account.js';
import { requireUser } from '../account/authenticate.js';
import { CurrentUserSchema, ImpersonationAuditSchema, ImpersonationCandidateListSchema } from '../openapi/answers.js';
import { changesState } from '../http/cross-site.js';
import { recordId } from '../http/schemas.js';
import * as impersonation from './service.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route writes its own audit rows (start and end of impersonation); its refusals go to the audit as other calls do. */
    auditsItself?: boolean;
  }
}

export default async function impersonationPlugin(app: FastifyInstance) {
  const deps: impersonation.ImpersonationDeps = { store: app.store, config: app.config, events: app.events };
  const impersonate = { claim: Claim.ImpersonateUser };

  app.get(
    '/api/Account/Impersonate',
    { config: { changesState: false, access: impersonate }, schema: { response: { 200: ImpersonationCandidateListSchema } } },
    async (request) => impersonation.listCandidates(deps, requireUser(request)),
  );

  app.post<{ Querystring: { userId: number } }>(
    '/api/Account/Impersonate',
    {
      config: { access: impersonate, auditsItself: true },
      schema: { querystring: { type: 'object', required: ['userId'], properties: { userId: recordId } }, response: { 200: CurrentUserSchema } },
    },
    async (request) => impersonation.startImpersonation(deps, requireUser(request), request.query.userId, request.ip),
  );

  // Signed in is enough to ask: the service answers 409 unless the session impersonates.
  app.post(
    '/api/Account/ClearImpersonation',
    { config: { access: 'signedIn', auditsItself: true }, schema: { response: { 200: CurrentUserSchema } } },
    async (request) => impersonation.clearImpersonation(deps, requireUser(request), request.ip),
  );

  app.get(
    '/api/user/ImpersonationAudit',
    { config: { changesState: false, access: { root: true } }, schema: { response: { 200: ImpersonationAuditSchema } } },
    async (request) => impersonation.listImpersonationAudit(deps, requireUser(request)),
  );
}

/**
 * Writes each state-changing REST call of an impersonating session (not a GET, or a GET
 * declared `changesState`), refused ones too, with its status. The path only: queries may carry passwords (PATCH /api/user?newPassword).
 * Install on the root instance (its hooks reach every route).
 */
export function installImpersonationAudit(app: FastifyInstance): void {
  // A handler that calls reply.send() and resolves undefined can pass onSend twice: once a request.
  const written = new WeakSet<object>();
  // onSend, not onResponse: the row is written before the caller has the answer.
  app.addHook('onSend', async (request, reply, payload) => {
    if (written.has(request)) return payload;
    const p = request.principal;
    const config = request.routeOptions.config;
    // The hub's own requests (negotiate, polls) carry no operation: hub-audit.ts writes its methods.
    // A route that audits itself writes only what it did (a start, an end): its refusals are
    // written here like any other call's (issue 39 item 14: a refused Impersonate while
    // impersonating left no row).
    const selfAudited = config?.auditsItself && reply.statusCode < 400;
    if (!p?.impersonator || !changesState(request) || selfAudited || config?.access === 'hubConnection') return payload;
    written.add(request);
    const path = request.url.split('?')[0];
    try {
      await impersonation.recordImpersonatedCall(app.store, p, `${request.method} ${path}`, reply.statusCode, request.ip);
    } catch (err) {
      request.log.error({ err }, 'could not write the impersonation audit');
    }
    return payload;
  });
}
