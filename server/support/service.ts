// The support tickets' operations (spec 1 section 7; issue 41 item 11). A ticket is stored
// first (so it is never lost), then, on a self-hosted appliance, mailed to the operator's
// address through the appliance's mail settings (server/mail/) in the background: the user
// does not wait for a slow mail server, and what became of the mail is recorded for the root
// user's Support Tickets page. In the hosted flavour the provider's staff read them under
// Staff > Feedback (server/staff/feedback/), so nothing is mailed.
import type { FastifyBaseLogger } from 'fastify';
import { DeploymentMode } from '../contract/account.js';
import type { SupportTicket, SupportTicketItem, SupportTicketResult } from '../contract/support.js';
import type { Config } from '../config.js';
import type { Principal } from '../account/principal.js';
import { badRequest, notFound } from '../http/errors.js';
import type { SendMail } from '../mail/transport.js';
import { publicUrlInForce } from '../settings/public-url.js';
import type { Store } from '../store/db.js';
import { validEmailAddress } from '../users/email-address.js';
import { supportEmailInForce } from './operator-address.js';
import { insertTicket, listTickets, recordTicketMail, ticketErrorLog } from './repository.js';
import { ticketMail } from './ticket-mail.js';

export interface SupportDeps {
  store: Store;
  config: Pick<Config, 'deployment' | 'publicUrl'>;
  sendMail: SendMail;
  log: FastifyBaseLogger;
  env?: NodeJS.ProcessEnv;
}

export interface SupportTicketArgs extends SupportTicket {
  errorLog: unknown;
}

/** Mails in flight, so a test (or shutdown) can wait for them. */
const inFlight = new Set<Promise<void>>();
export const mailsInFlight = () => Promise.all([...inFlight]);

export async function sendSupportTicket(deps: SupportDeps, p: Principal, t: SupportTicketArgs): Promise<SupportTicketResult> {
  if (!t.problemStatement.trim()) throw badRequest('Describe the problem.');
  const selfHosted = deps.config.deployment === DeploymentMode.SelfHosted;
  // Self-hosted the dialog asks for an address (the answer goes there); hosted it is optional.
  const email = selfHosted || t.email.trim() ? validEmailAddress(t.email) : '';
  const errorLog = JSON.stringify(t.errorLog ?? null);
  const id = await deps.store.transaction((q) =>
    insertTicket(q, { accountId: p.accountId, userId: p.userId, name: t.name.trim(), email, problemStatement: t.problemStatement, errorLog }),
  );
  if (selfHosted) {
    const mail = mailToOperator(deps, p, { id, name: t.name.trim(), email, problemStatement: t.problemStatement, errorLog });
    inFlight.add(mail);
    void mail.finally(() => inFlight.delete(mail));
  }
  return { Id: id };
}

async function mailToOperator(
  deps: SupportDeps,
  p: Principal,
  t: { id: number; name: string; email: string; problemStatement: string; errorLog: string },
): Promise<void> {
  let to = '';
  let problem = '';
  try {
    const facts = await deps.store.read(async (q) => ({
      to: await supportEmailInForce(q, deps.env),
      consoleUrl: (await publicUrlInForce(q, deps.config)) ?? '',
      accountName: (await q.one<{ name: string }>('SELECT name FROM accounts WHERE id = $1', [p.accountId]))?.name ?? '',
    }));
    to = facts.to;
    if (!to) problem = 'No support e-mail address is set (Settings > General > Support e-mail address), and the root user has no e-mail address.';
    else await deps.sendMail(ticketMail({ ...t, accountName: facts.accountName, userName: p.username, consoleUrl: facts.consoleUrl }, to));
  } catch (err) {
    // MailError names the server's answer; never the password.
    problem = (err as Error).message;
  }
  if (problem) deps.log.warn({ ticketId: t.id }, `support ticket not mailed: ${problem}`);
  else deps.log.info({ ticketId: t.id }, 'support ticket mailed to the operator');
  await deps.store.transaction((q) => recordTicketMail(q, t.id, to, problem)).catch((err: Error) => deps.log.error({ ticketId: t.id, err: err.message }, 'support ticket mail result not stored'));
}

export function supportTickets(deps: Pick<SupportDeps, 'store'>, args: { limit: number; before?: number }): Promise<SupportTicketItem[]> {
  return deps.store.read((q) => listTickets(q, args));
}

export async function supportTicketErrorLog(deps: Pick<SupportDeps, 'store'>, id: number): Promise<string> {
  const log = await deps.store.read((q) => ticketErrorLog(q, id));
  if (log === undefined) throw notFound(`Support ticket ${id} not found.`);
  return log;
}
