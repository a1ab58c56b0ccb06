// Activation links: POST /api/user/SendActivationLink?email (spec 1 section 7, UserManagement)
// and the two public calls of the console's /activate page. The token travels in JSON bodies
// (never in a URL, so never in a request log line).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Claim } from '../contract/account.js';
import type { ActivateRequest, ActivationTokenRequest } from '../contract/users.js';
import { requireUser } from '../account/authenticate.js';
import { LoginThrottle } from '../account/login-throttle.js';
import { loadMailSettings } from '../mail/settings.js';
import { mailer } from '../mail/transport.js';
import { activate, defaultSendLimits, describeActivationLink, sendActivationLink, type ActivationDeps } from './service.js';
import { publicUrlInForce } from '../settings/public-url.js';

const str = { type: 'string' } as const;
const LinkInfoSchema = { type: 'object', required: ['Username', 'EmailAddress', 'ExpiresAt'], properties: { Username: str, EmailAddress: str, ExpiresAt: str } } as const;
const LinkSentSchema = { type: 'object', required: ['EmailAddress', 'ExpiresAt', 'Message'], properties: { EmailAddress: str, ExpiresAt: str, Message: str } } as const;
const token = { type: 'string', minLength: 1, maxLength: 128 } as const;

/** Ten links that do not work per address per 15 minutes, then 429 (tokens cannot be guessed; this stops a script). */
const BadLinkLimits = { perUserAndAddress: 10, perAddress: 10, windowMs: 15 * 60_000 };

export default async function activationPlugin(app: FastifyInstance, opts: { throttle?: LoginThrottle } = {}) {
  const deps: ActivationDeps = {
    store: app.store,
    events: app.events,
    sendMail: mailer(app.store),
    smtpHost: async () => (await app.store.read((q) => loadMailSettings(q))).settings.host,
    throttle: opts.throttle ?? new LoginThrottle(BadLinkLimits, Date.now, app.counters('activation-bad-links')),
    sendLimits: defaultSendLimits(app.counters),
  };

  /**
   * Where the user opens the link: the public URL in force (HOPWATCH_PUBLIC_URL, else Settings >
   * General > Public URL), else the address the admin reached the console at (docs/users.md).
   */
  const baseUrl = async (request: FastifyRequest) =>
    (await deps.store.read((q) => publicUrlInForce(q, app.config))) ?? `${request.protocol}://${request.host}`;

  app.post<{ Querystring: { email: string } }>(
    '/api/user/SendActivationLink',
    {
      config: { access: { claim: Claim.UserManagement } },
      schema: {
        querystring: { type: 'object', required: ['email'], properties: { email: { type: 'string', maxLength: 256 } } },
        response: { 200: LinkSentSchema },
      },
    },
    async (request) => {
      try {
        const sent = await sendActivationLink(deps, requireUser(request), request.query.email, await baseUrl(request));
        request.log.info({ to: sent.EmailAddress }, 'activation link mailed');
        return sent;
      } catch (err) {
        if ((err as { status?: number }).status === 502) request.log.warn({ err: (err as Error).message }, 'activation link not mailed');
        throw err;
      }
    },
  );

  // Public: the person holding the link has no session yet. POST so the token stays in the body.
  app.post<{ Body: ActivationTokenRequest }>(
    '/api/Account/ActivationLink',
    {
      config: { access: 'public' },
      bodyLimit: 4096,
      schema: {
        body: { type: 'object', required: ['Token'], additionalProperties: false, properties: { Token: token } },
        response: { 200: LinkInfoSchema },
      },
    },
    async (request) => describeActivationLink(deps, request.body.Token, request.ip),
  );

  app.post<{ Body: ActivateRequest }>(
    '/api/Account/Activate',
    {
      config: { access: 'public' },
      bodyLimit: 4096,
      schema: {
        body: {
          type: 'object',
          required: ['Token', 'NewPassword'],
          additionalProperties: false,
          properties: { Token: token, NewPassword: { type: 'string', maxLength: 1024 } },
        },
        response: { 200: LinkInfoSchema },
      },
    },
    async (request) => {
      const done = await activate(deps, request.body.Token, request.body.NewPassword, request.ip);
      request.log.info({ username: done.Username, remoteAddress: request.ip }, 'password set from an activation link');
      return done;
    },
  );
}
