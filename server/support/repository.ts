// SQL of the support tickets (support_tickets, migration 3) and of their mails to the
// operator (support_ticket_mails, migration 24).
import type { SupportTicketItem } from '../contract/support.js';
import type { Queryable } from '../store/db.js';

export interface TicketRecord {
  accountId: number;
  userId: number;
  name: string;
  email: string;
  problemStatement: string;
  errorLog: string;
}

export async function insertTicket(q: Queryable, t: TicketRecord): Promise<number> {
  const row = await q.one<{ id: number }>(
    `INSERT INTO support_tickets (account_id, user_id, name, email, problem_statement, error_log, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [t.accountId, t.userId, t.name, t.email, t.problemStatement, t.errorLog, Date.now()],
  );
  return Number(row!.id);
}

export async function recordTicketMail(q: Queryable, ticketId: number, mailedTo: string, problem: string): Promise<void> {
  await q.run('INSERT OR REPLACE INTO support_ticket_mails VALUES ($1, $2, $3, $4)', [ticketId, mailedTo, problem, Date.now()]);
}

interface TicketRow {
  Id: number;
  Time: number;
  AccountName: string;
  UserName: string;
  Name: string;
  EmailAddress: string;
  ProblemStatement: string;
  ErrorLogChars: number;
  MailedTo: string | null;
  MailProblem: string | null;
  MailTime: number | null;
}

const iso = (ms: number | bigint) => new Date(Number(ms)).toISOString();

/** Newest first; `before` pages on (the Id of the last ticket of the previous page). */
export async function listTickets(q: Queryable, args: { limit: number; before?: number }): Promise<SupportTicketItem[]> {
  const rows = await q.all<TicketRow>(
    `SELECT t.id AS "Id", t.created_at AS "Time", coalesce(a.name, '') AS "AccountName", coalesce(u.name, '') AS "UserName",
            t.name AS "Name", t.email AS "EmailAddress", t.problem_statement AS "ProblemStatement", length(t.error_log) AS "ErrorLogChars",
            m.mailed_to AS "MailedTo", m.problem AS "MailProblem", m.mailed_at AS "MailTime"
     FROM support_tickets t LEFT JOIN users u ON u.id = t.user_id LEFT JOIN accounts a ON a.id = t.account_id
       LEFT JOIN support_ticket_mails m ON m.ticket_id = t.id
     WHERE ($2::INTEGER IS NULL OR t.id < $2)
     ORDER BY t.id DESC LIMIT $1`,
    [args.limit, args.before ?? null],
  );
  return rows.map((r) => ({
    Id: Number(r.Id),
    Time: iso(r.Time),
    AccountName: r.AccountName,
    UserName: r.UserName,
    Name: r.Name,
    EmailAddress: r.EmailAddress,
    ProblemStatement: r.ProblemStatement,
    ErrorLogChars: Number(r.ErrorLogChars),
    Mail: r.MailTime === null ? null : { To: r.MailedTo ?? '', Problem: r.MailProblem ?? '', Time: iso(r.MailTime) },
  }));
}

export async function ticketErrorLog(q: Queryable, id: number): Promise<string | undefined> {
  return (await q.one<{ log: string }>('SELECT error_log AS log FROM support_tickets WHERE id = $1', [id]))?.log;
}

/** The root user's own e-mail address ('' when it has none): where tickets go when no support address is set. */
export async function rootEmail(q: Queryable): Promise<string> {
  return (await q.one<{ email: string }>('SELECT email FROM users WHERE is_root ORDER BY id LIMIT 1'))?.email ?? '';
}
