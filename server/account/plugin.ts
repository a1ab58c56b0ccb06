// Routes of spec 1 section 7 "Account".
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { LoginRequest } from '../contract/account.js';
import { CurrentUserSchema } from '../openapi/answers.js';
import { requireUser, sessionTokenFrom } from './authenticate.js';
import { PersistentSessionSeconds, SessionCookie } from './login-sessions.js';
import { DefaultThrottleLimits, LoginThrottle } from './login-throttle.js';
import { changePassword, getCurrentUser, login, logout, type AccountDeps } from './service.js';
import { fieldsBody, fromQueryOrBody, passwordArg } from './password-fields.js';

const loginBody = {
  type: 'object',
  required: ['Username', 'Password'],
  additionalProperties: true,
  properties: {
    Username: { type: 'string', maxLength: 256 },
    Password: { type: 'string', maxLength: 1024 },
    RememberMe: { type: 'boolean' },
  },
} as const;

// The spec's form puts both in the query; the console sends them in a JSON body, which no
// proxy writes to its log (password-fields.ts). Either place, the same schema.
const changePasswordFields = { currentPassword: passwordArg, newPassword: passwordArg } as const;
const changePasswordQuery = { type: 'object', properties: changePasswordFields } as const;

export default async function accountPlugin(app: FastifyInstance, opts: { throttle?: LoginThrottle }) {
  const deps: AccountDeps = { store: app.store, config: app.config, throttle: opts.throttle ?? new LoginThrottle(DefaultThrottleLimits, Date.now, app.counters('sign-in')), events: app.events };

  const clearSession = (reply: FastifyReply) => reply.clearCookie(SessionCookie, { path: '/' });

  app.post<{ Body: LoginRequest }>(
    '/api/Account/Login',
    { config: { access: 'public' }, schema: { body: loginBody }, bodyLimit: 16 * 1024 },
    async (request, reply) => {
      // Sign-ins and refusals are what an operator looks for at info (the address is the
      // connection's, or a trusted proxy's forwarded one); never the password.
      const who = { username: String(request.body.Username ?? '').slice(0, 256), remoteAddress: request.ip };
      let signedIn;
      try {
        signedIn = await login(deps, request.body, request.ip, String(request.headers['user-agent'] ?? ''));
      } catch (err) {
        const status = (err as { status?: number }).status;
        if (status === 401 || status === 429) request.log.info({ ...who, status }, 'sign-in refused');
        throw err;
      }
      request.log.info(who, 'signed in');
      const { user, token, persistent } = signedIn;
      reply.setCookie(SessionCookie, token, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: request.protocol === 'https',
        ...(persistent ? { maxAge: PersistentSessionSeconds } : {}),
      });
      return user;
    },
  );

  const logoutHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    await logout(deps, sessionTokenFrom(request.headers.cookie));
    clearSession(reply);
    // Returned: an async handler that only calls send() can be sent twice past async onSend hooks.
    return reply.code(204).send();
  };
  app.post('/api/Account/Logout', { config: { access: 'public' } }, logoutHandler);
  app.get('/api/Account/Logout', { config: { changesState: true, access: 'public' } }, logoutHandler);

  // The change-password screen needs these two (and sign-in, sign-out), so they answer a user
  // who must first replace a temporary password; every other call refuses them. LiveShare
  // visitors read who they are too.
  app.get('/api/Account/GetCurrentUser', { config: { changesState: false, access: { visitor: true, passwordChange: true } }, schema: { response: { 200: CurrentUserSchema } } }, async (request) => getCurrentUser(deps, requireUser(request)));

  app.patch<{ Querystring: { currentPassword?: string; newPassword?: string }; Body: { currentPassword?: string; newPassword?: string } | null }>(
    '/api/Account',
    { config: { access: 'passwordChange' }, schema: { querystring: changePasswordQuery, body: fieldsBody(changePasswordFields) } },
    async (request) => {
      const p = requireUser(request);
      const currentPassword = fromQueryOrBody<string>(request, 'currentPassword');
      const newPassword = fromQueryOrBody<string>(request, 'newPassword') ?? '';
      return changePassword(deps, p, currentPassword, newPassword, sessionTokenFrom(request.headers.cookie), request.ip);
    },
  );

  app.get('/api/Account/TestPublic', { config: { changesState: false, access: 'public' } }, async () => ({ Message: 'Public call answered.' }));
  app.get('/api/Account/TestPrivate', { config: { changesState: false, access: 'signedIn' } }, async (request) => {
    const p = requireUser(request);
    return { Message: `Private call answered for ${p.username}.` };
  });
}

