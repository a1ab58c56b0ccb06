// POST /cmd/sendsupportticket (spec 1 section 7): the console's support dialog. The ticket and
// the console's error log are stored, then mailed to the operator on a self-hosted appliance
// (service.ts). GET /api/support/tickets and its error logs: the root user's Support Tickets
// page (issue 41 item 11); in the hosted flavour staff read them under Staff > Feedback.
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../account/authenticate.js';
import { recordId } from '../http/schemas.js';
import { mailer } from '../mail/transport.js';
import { emailAddressArg } from '../users/email-address.js';
import { agentSupportRoute } from './agent-support.js';
import { mailsInFlight, sendSupportTicket, supportTicketErrorLog, supportTickets, type SupportDeps } from './service.js';
import { SupportTicketListSchema, TicketBodyLimit } from './schemas.js';

/** The root user's page reads at most this many tickets at once. */
export const MaxTicketsPerPage = 500;
const rootOnly = { root: true, appliance: true } as const;

export default async function supportPlugin(app: FastifyInstance) {
  const deps: SupportDeps = { store: app.store, config: app.config, sendMail: mailer(app.store), log: app.log };
  // A mail still on its way gets a moment to finish at shutdown, not the mail timeout's 15 s
  // (the ticket itself is stored already; the page then says no mail was recorded).
  app.addHook('onClose', async () => {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([mailsInFlight(), new Promise((done) => (timer = setTimeout(done, 2000)))]);
    clearTimeout(timer);
  });

  app.post<{ Querystring: { name?: string; email?: string; problemStatement: string }; Body: unknown }>(
    '/cmd/sendsupportticket',
    {
      config: { access: 'signedIn' },
      bodyLimit: TicketBodyLimit,
      schema: {
        querystring: {
          type: 'object',
          required: ['problemStatement'],
          properties: {
            name: { type: 'string', maxLength: 200 },
            email: emailAddressArg,
            problemStatement: { type: 'string', maxLength: 20_000 },
          },
        },
      },
    },
    async (request) => {
      const p = requireUser(request);
      const { name = '', email = '', problemStatement } = request.query;
      const ticket = await sendSupportTicket(deps, p, { name, email, problemStatement, errorLog: request.body });
      request.log.info({ ticketId: ticket.Id }, 'support ticket stored');
      return ticket;
    },
  );

  app.get<{ Querystring: { limit?: number; before?: number } }>(
    '/api/support/tickets',
    {
      config: { changesState: false, access: rootOnly },
      schema: {
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { limit: { type: 'integer', minimum: 1, maximum: MaxTicketsPerPage }, before: recordId },
        },
        response: { 200: SupportTicketListSchema },
      },
    },
    async (request) => supportTickets(deps, { limit: request.query.limit ?? 200, before: request.query.before }),
  );

  // The error log as a file: the page links to it rather than loading megabytes into the list.
  app.get<{ Params: { id: number } }>(
    '/api/support/tickets/:id/errorlog',
    {
      config: { changesState: false, access: rootOnly },
      schema: { params: { type: 'object', required: ['id'], properties: { id: recordId } } },
    },
    async (request, reply) => {
      const log = await supportTicketErrorLog(deps, request.params.id);
      return reply
        .type('application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="support-ticket-${request.params.id}-error-log.json"`)
        .header('x-content-type-options', 'nosniff')
        .send(log);
    },
  );

  // The agent's Get Help (onboarding window): server/support/agent-support.ts.
  agentSupportRoute(app, deps);
}
