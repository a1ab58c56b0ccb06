// Mail settings (Settings > General > Mail) and "Send test": GET/PUT /api/mail/settings,
// POST /api/mail/test. SettingsManagement; appliance-wide (one SMTP server for every account),
// so in the hosted flavour the provider's alone (issue 39). The password is write-only: stored
// sealed (password.ts), answered as HasPassword only, kept by an update that leaves it blank.
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../account/authenticate.js';
import { Claim } from '../contract/account.js';
import { badRequest } from '../http/errors.js';
import { loadMailSettings, storeMailSettings, toDto, type MailSettingsInput } from './settings.js';
import { MailError, sendMailWith } from './transport.js';
import { mailPasswordSeal, sealClearMailPassword } from './password.js';

const manage = { claim: Claim.SettingsManagement, appliance: true };
const str = (max: number) => ({ type: 'string', maxLength: max }) as const;

export const MailSettingsSchema = {
  type: 'object',
  required: ['Host', 'Port', 'Security', 'User', 'HasPassword', 'From', 'AllowInvalidCertificate', 'FromEnvironment'],
  properties: {
    Host: { type: 'string' },
    Port: { type: 'integer' },
    Security: { type: 'string', enum: ['none', 'starttls', 'tls'] },
    User: { type: 'string' },
    HasPassword: { type: 'boolean' },
    From: { type: 'string' },
    AllowInvalidCertificate: { type: 'boolean' },
    FromEnvironment: { type: 'array', items: { type: 'string' } },
  },
} as const;

export default async function mailPlugin(app: FastifyInstance) {
  const seal = mailPasswordSeal(app.store);
  // Older versions stored the password in clear: sealed once, at start.
  if (await sealClearMailPassword(app.store, seal)) app.log.info('The stored SMTP password is now sealed under liveshare.key.');
  const read = () => app.store.read((q) => loadMailSettings(q, process.env, seal));

  app.get('/api/mail/settings', { config: { access: manage, changesState: false }, schema: { response: { 200: MailSettingsSchema } } }, async (request) => {
    requireUser(request);
    const { settings, fromEnvironment } = await read();
    return toDto(settings, fromEnvironment);
  });

  app.put<{ Body: MailSettingsInput }>(
    '/api/mail/settings',
    {
      config: { access: manage },
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          properties: {
            Host: str(253),
            Port: { type: 'integer', minimum: 1, maximum: 65535 },
            Security: { type: 'string', enum: ['none', 'starttls', 'tls'] },
            User: str(256),
            Password: str(256),
            ClearPassword: { type: 'boolean' },
            From: str(320),
            AllowInvalidCertificate: { type: 'boolean' },
          },
        },
        response: { 200: MailSettingsSchema },
      },
    },
    async (request) => {
      requireUser(request);
      await app.store.transaction((q) => storeMailSettings(q, request.body, seal));
      const { settings, fromEnvironment } = await read();
      return toDto(settings, fromEnvironment);
    },
  );

  app.post<{ Body: { To: string } }>(
    '/api/mail/test',
    {
      config: { access: manage },
      schema: { body: { type: 'object', required: ['To'], additionalProperties: false, properties: { To: { type: 'string', minLength: 3, maxLength: 320 } } } },
    },
    async (request) => {
      requireUser(request);
      if (!/^[^\s@<>,]+@[^\s@<>,]+$/.test(request.body.To)) throw badRequest('To must be one e-mail address.');
      const { settings } = await read();
      try {
        const r = await sendMailWith(settings, { to: request.body.To, subject: 'Hopwatch test mail', text: 'This is a test mail from Hopwatch: the SMTP settings work.' });
        return { Ok: true, Answer: r.response };
      } catch (err) {
        if (err instanceof MailError) return { Ok: false, Answer: err.message };
        throw err;
      }
    },
  );
}
