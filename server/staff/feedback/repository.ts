// Insights feedback (insight_feedback, migration 10) and support tickets (support_tickets,
// migration 3) of every account, and the staff answers to them (feedback_answers, migration 16).
import type { AccountFeedbackAnswer, FeedbackAnswer, FeedbackItem, FeedbackKind } from '../../contract/staff.js';
import type { Queryable } from '../../store/db.js';
import { isoOf } from '../time.js';
import { list } from '../../store/dialect.js';

interface ItemRow {
  Kind: FeedbackKind;
  Id: number;
  Time: number;
  AccountId: number;
  AccountName: string;
  UserId: number;
  UserName: string;
  EmailAddress: string;
  Rating: number;
  Text: string;
  HelpRequested: boolean;
  SessionId: string;
  ContextJson: string;
}

// One list of both kinds, newest first; the ticket's own e-mail, else the user's.
// Named i: callers filter on i."Kind" and friends (a subquery in FROM needs a name on PostgreSQL).
const itemsSql = `
  SELECT * FROM (
    SELECT 'Insight' AS "Kind", f.id AS "Id", f.created_at AS "Time", f.account_id AS "AccountId", coalesce(a.name, '') AS "AccountName",
           f.user_id AS "UserId", coalesce(u.name, '') AS "UserName", coalesce(u.email, '') AS "EmailAddress", f.rating::INTEGER AS "Rating",
           f.comments AS "Text", f.help_requested AS "HelpRequested", f.session_id AS "SessionId", f.context_json AS "ContextJson"
    FROM insight_feedback f LEFT JOIN users u ON u.id = f.user_id LEFT JOIN accounts a ON a.id = f.account_id
    UNION ALL
    SELECT 'Ticket', t.id, t.created_at, t.account_id, coalesce(a.name, ''), t.user_id, coalesce(nullif(t.name, ''), u.name, ''),
           coalesce(nullif(t.email, ''), u.email, ''), 0, t.problem_statement, true, '', ''
    FROM support_tickets t LEFT JOIN users u ON u.id = t.user_id LEFT JOIN accounts a ON a.id = t.account_id
  ) AS i`;

/** "session 12, Route Change Test" from an Insights feedback's session and ContextJson. */
export function contextOf(sessionId: string, contextJson: string): string {
  let detail = '';
  try {
    const c = JSON.parse(contextJson) as Record<string, unknown> | null;
    const t = c?.testTitle ?? c?.TestTitle ?? c?.title ?? c?.Title;
    if (typeof t === 'string') detail = t;
  } catch {
    // Not JSON: the console sent free text; shown as it is.
    detail = contextJson.slice(0, 200);
  }
  return [sessionId ? `session ${sessionId}` : '', detail].filter(Boolean).join(', ');
}

export interface FeedbackFilter {
  kind?: FeedbackKind;
  id?: number;
  accountId?: number;
  unansweredOnly?: boolean;
  limit: number;
}

export async function listFeedback(q: Queryable, f: FeedbackFilter): Promise<FeedbackItem[]> {
  const rows = await q.all<ItemRow>(
    `${itemsSql}
     WHERE ($1::VARCHAR IS NULL OR i."Kind" = $1) AND ($2::INTEGER IS NULL OR i."AccountId" = $2)
       AND (NOT $3 OR NOT EXISTS (SELECT 1 FROM feedback_answers x WHERE x.kind = i."Kind" AND x.item_id = i."Id"))
       AND ($5::INTEGER IS NULL OR i."Id" = $5)
     ORDER BY i."Time" DESC, i."Id" DESC LIMIT $4`,
    [f.kind ?? null, f.accountId ?? null, f.unansweredOnly ?? false, f.limit, f.id ?? null],
  );
  const answers = await answersOf(q, rows.map((r) => [r.Kind, r.Id]));
  return rows.map((r) => ({
    Kind: r.Kind,
    Id: r.Id,
    Time: isoOf(r.Time)!,
    AccountId: r.AccountId,
    AccountName: r.AccountName,
    UserId: r.UserId,
    UserName: r.UserName,
    EmailAddress: r.EmailAddress,
    Rating: Number(r.Rating),
    Text: r.Text,
    HelpRequested: r.HelpRequested,
    Context: r.Kind === 'Insight' ? contextOf(r.SessionId, r.ContextJson) : '',
    Answers: answers.get(`${r.Kind}:${r.Id}`) ?? [],
  }));
}

export async function findFeedbackItem(q: Queryable, kind: FeedbackKind, id: number): Promise<FeedbackItem | undefined> {
  const [item] = await listFeedback(q, { kind, id, limit: 1 });
  return item;
}

async function answersOf(q: Queryable, items: [FeedbackKind, number][]): Promise<Map<string, FeedbackAnswer[]>> {
  const out = new Map<string, FeedbackAnswer[]>();
  if (!items.length) return out;
  const rows = await q.all<{ kind: string; itemId: number; Id: number; Time: number; StaffName: string; Text: string; Mailed: boolean; MailProblem: string }>(
    `SELECT kind, item_id AS "itemId", id AS "Id", created_at AS "Time", staff_name AS "StaffName", text AS "Text", mailed AS "Mailed", mail_problem AS "MailProblem"
     FROM feedback_answers WHERE list_contains($1::VARCHAR[], kind || ':' || item_id) ORDER BY created_at, id`,
    [list(items.map(([k, i]) => `${k}:${i}`))],
  );
  for (const r of rows) {
    const key = `${r.kind}:${r.itemId}`;
    out.set(key, [...(out.get(key) ?? []), { Id: r.Id, Time: isoOf(r.Time)!, StaffName: r.StaffName, Text: r.Text, Mailed: r.Mailed, MailProblem: r.MailProblem }]);
  }
  return out;
}

export interface AnswerRecord {
  kind: FeedbackKind;
  itemId: number;
  accountId: number;
  staffUserId: number;
  staffName: string;
  text: string;
  mailed: boolean;
  mailProblem: string;
}

export async function insertAnswer(q: Queryable, a: AnswerRecord): Promise<void> {
  await q.run(
    `INSERT INTO feedback_answers (kind, item_id, account_id, staff_user_id, staff_name, text, mailed, mail_problem, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [a.kind, a.itemId, a.accountId, a.staffUserId, a.staffName, a.text, a.mailed, a.mailProblem, Date.now()],
  );
}

/** What an account sees: the answers to its own feedback and tickets, newest first. */
export async function answersForAccount(q: Queryable, accountId: number, limit: number): Promise<AccountFeedbackAnswer[]> {
  const rows = await q.all<{ Kind: FeedbackKind; ItemId: number; About: string; Time: number; Text: string }>(
    `SELECT x.kind AS "Kind", x.item_id AS "ItemId", left(coalesce(i."Text", ''), 120) AS "About", x.created_at AS "Time", x.text AS "Text"
     FROM feedback_answers x LEFT JOIN (${itemsSql}) i ON i."Kind" = x.kind AND i."Id" = x.item_id
     WHERE x.account_id = $1 ORDER BY x.created_at DESC, x.id DESC LIMIT $2`,
    [accountId, limit],
  );
  return rows.map((r) => ({ ...r, Time: isoOf(r.Time)! }));
}
