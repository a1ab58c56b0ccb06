// Mail settings (Settings > General > Mail) and "Send test": GET/PUT /api/mail/settings,
// POST /api/mail/test. SettingsManagement only; the password is write-only.
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../account/authenticate.js';
import { Claim } from '../contract/account.js';
import { badRequest } from '../http/errors.js';
import { loadMailSettings, storeMailSettings, toDto, type MailSettingsInput } from './settings.js';
import { MailError, sendMailWith } from './transport.js';

const manage = { claim: Claim.SettingsManagement };
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
  const read = () => app.store.read((q) => loadMailSettings(q));

  app.get('/api/mail/settings', { config: { access: manage }, schema: { response: { 200: MailSettingsSchema } } }, async (request) => {
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
            From: str(320),
            AllowInvalidCertificate: { type: 'boolean' },
          },
        },
        response: { 200: MailSettingsSchema },
      },
    },
    async (request) => {
      requireUser(request);
      await app.store.transaction((q) => storeMailSettings(q, request.body));
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
