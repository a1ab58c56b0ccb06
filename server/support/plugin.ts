// POST /cmd/sendsupportticket (spec 1 section 7): the console's support dialog. The ticket
// and the console's error log are kept in the appliance for the administrator; a
// self-hosted server has no mail relay to send them anywhere.
import type { FastifyInstance } from 'fastify';
import { DeploymentMode } from '../contract/account.js';
import type { SupportTicket, SupportTicketResult } from '../contract/support.js';
import { requireUser } from '../account/authenticate.js';
import { badRequest } from '../http/errors.js';
import type { Principal } from '../account/principal.js';
import type { Store } from '../store/db.js';
import { agentSupportRoute } from './agent-support.js';

/** The console caps its Error_Log at 1,048,576 characters; allow that plus JSON escaping. */
export const TicketBodyLimit = 4 * 1024 * 1024;
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface SupportTicketArgs extends SupportTicket {
  errorLog: unknown;
}

export async function sendSupportTicket(store: Store, deployment: number, p: Principal, t: SupportTicketArgs): Promise<SupportTicketResult> {
  if (!t.problemStatement.trim()) throw badRequest('Describe the problem.');
  if (deployment === DeploymentMode.SelfHosted && !emailPattern.test(t.email)) throw badRequest('Enter a valid e-mail address.');
  const row = await store.one<{ id: number }>(
    `INSERT INTO support_tickets (account_id, user_id, name, email, problem_statement, error_log, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [p.accountId, p.userId, t.name, t.email, t.problemStatement, JSON.stringify(t.errorLog ?? null), Date.now()],
  );
  return { Id: row!.id };
}

export default async function supportPlugin(app: FastifyInstance) {
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
            email: { type: 'string', maxLength: 320 },
            problemStatement: { type: 'string', maxLength: 20_000 },
          },
        },
      },
    },
    async (request) => {
      const p = requireUser(request);
      const { name = '', email = '', problemStatement } = request.query;
      const ticket = await sendSupportTicket(app.store, app.config.deployment, p, { name, email, problemStatement, errorLog: request.body });
      request.log.info({ ticketId: ticket.Id }, 'support ticket stored');
      return ticket;
    },
  );

  // The agent's Get Help (onboarding window): server/support/agent-support.ts.
  agentSupportRoute(app);
}
