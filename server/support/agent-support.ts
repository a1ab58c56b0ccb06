// POST /cmd/cloudconnect-agent-get-support?id&name&email&problemStatement (spec 1 section 7):
// help with one agent, asked from the onboarding window's Get Help (issue 23 part 4). It is a
// support ticket like /cmd/sendsupportticket, kept in the same support_tickets table for the
// provider's staff; the brief allows no migration, so the agent travels inside the stored
// error_log text, which becomes {"Agent": {...}, "Log": <the body>} for these tickets
// (docs/onboarding.md). The agent must be one of the caller's account.
import type { FastifyInstance } from 'fastify';
import type { SupportTicketResult } from '../contract/support.js';
import { requireUser } from '../account/authenticate.js';
import type { Principal } from '../account/principal.js';
import { notFound, tooManyRequests } from '../http/errors.js';
import { SlidingWindowLimit } from '../insights/rate-limit.js';
import { findAgent } from '../agents/repository.js';
import { agentIdArg } from '../agents/schemas.js';
import { emailAddressArg } from '../users/email-address.js';
import { TicketBodyLimit } from './schemas.js';
import { sendSupportTicket, type SupportDeps } from './service.js';

/** A person asks for help a few times an hour; more is a loop or a script. */
export const AgentSupportPerUserPerHour = 10;

export interface AgentSupportArgs {
  id: number;
  name: string;
  email: string;
  problemStatement: string;
  body: unknown;
}

export async function requestAgentSupport(
  deps: SupportDeps & { limit: SlidingWindowLimit },
  p: Principal,
  args: AgentSupportArgs,
): Promise<SupportTicketResult> {
  const agent = await deps.store.read((q) => findAgent(q, args.id));
  if (!agent || agent.accountId !== p.accountId) throw notFound(`Agent ${args.id} not found.`);
  const wait = await deps.limit.take(`${p.accountId}:${p.userId}`, Date.now());
  if (wait > 0) throw tooManyRequests(`At most ${AgentSupportPerUserPerHour} support requests an hour. Try again in ${Math.ceil(wait / 60_000)} minute(s).`, Math.ceil(wait / 1000));
  const about = {
    ID: agent.id,
    Name: agent.name,
    Configured: agent.credentialHash !== null,
    MachineName: agent.machineName,
    Platform: agent.platform,
    Version: agent.version,
    LastMessageUnixTime: agent.lastMessage === null ? null : Math.floor(agent.lastMessage / 1000),
  };
  return sendSupportTicket(deps, p, { name: args.name, email: args.email, problemStatement: args.problemStatement, errorLog: { Agent: about, Log: args.body ?? null } });
}

export function agentSupportRoute(app: FastifyInstance, support: SupportDeps): void {
  const limit = new SlidingWindowLimit(AgentSupportPerUserPerHour, 3600_000, app.counters('agent-support'));
  app.post<{ Querystring: { id: number; name?: string; email?: string; problemStatement: string }; Body: unknown }>(
    '/cmd/cloudconnect-agent-get-support',
    {
      config: { access: { note: 'the agent must be one of the account' } },
      bodyLimit: TicketBodyLimit,
      schema: {
        querystring: {
          type: 'object',
          required: ['id', 'problemStatement'],
          properties: {
            id: agentIdArg,
            name: { type: 'string', maxLength: 200 },
            email: emailAddressArg,
            problemStatement: { type: 'string', maxLength: 20_000 },
          },
        },
        response: { 200: { type: 'object', required: ['Id'], properties: { Id: { type: 'integer' } } } },
      },
    },
    async (request) => {
      const p = requireUser(request);
      const { id, name = '', email = '', problemStatement } = request.query;
      const ticket = await requestAgentSupport({ ...support, limit }, p, { id, name, email, problemStatement, body: request.body });
      request.log.info({ ticketId: ticket.Id, agentId: id }, 'agent support request stored');
      return ticket;
    },
  );
}
