// Feedback (/staff/feedback): Insights feedback and support tickets of every account, and
// answering them. An answer reaches the account two ways: a mail to the address the ticket
// gave (else the user's), through the appliance's mail settings (server/mail/), and the
// account's list of answers (GET /api/support/Answers), so it is not lost when no mail
// server is set or the mail fails; the answer says which happened.
import type { AccountFeedbackAnswer, FeedbackItem, FeedbackKind } from '../../contract/staff.js';
import type { Principal } from '../../account/principal.js';
import { badRequest, notFound } from '../../http/errors.js';
import type { SendMail } from '../../mail/transport.js';
import type { Store } from '../../store/db.js';
import { emailAddressProblem } from '../../users/email-address.js';
import { answersForAccount, findFeedbackItem, insertAnswer, listFeedback, type FeedbackFilter } from './repository.js';

/** Longest answer: a support reply, not a document. */
export const AnswerMaxLength = 10_000;

export interface FeedbackDeps {
  store: Store;
  sendMail: SendMail;
}

export function listFeedbackItems(deps: FeedbackDeps, filter: FeedbackFilter): Promise<FeedbackItem[]> {
  return deps.store.read((q) => listFeedback(q, filter));
}

/** The mail an answer makes: plain text only, so nothing the user or staff wrote is markup. */
export function answerMail(item: FeedbackItem, text: string): { subject: string; text: string } {
  const what = item.Kind === 'Ticket' ? `your support request #${item.Id}` : `your feedback on Insights #${item.Id}`;
  return {
    subject: item.Kind === 'Ticket' ? `Re: support request #${item.Id}` : `Re: your Insights feedback #${item.Id}`,
    text: `Hopwatch support answered ${what}:\n\n${text}\n\n> ${item.Text.slice(0, 2000).split('\n').join('\n> ')}\n\nYou can also read this answer in Hopwatch.\n`,
  };
}

export async function answerFeedback(deps: FeedbackDeps, staff: Principal, kind: FeedbackKind, id: number, text: string): Promise<FeedbackItem> {
  const body = text.trim();
  if (!body) throw badRequest('Write an answer first.');
  if (body.length > AnswerMaxLength) throw badRequest(`An answer has at most ${AnswerMaxLength} characters.`);
  const item = await deps.store.read((q) => findFeedbackItem(q, kind, id));
  if (!item) throw notFound(`${kind === 'Ticket' ? 'Support ticket' : 'Feedback'} ${id} not found.`);
  let mailed = false;
  let mailProblem = '';
  // A ticket's address was typed by a customer (the cloud flavour checks none): one mailbox
  // only, so an answer never goes to a list the customer wrote (issue 39 item 13).
  const addressProblem = item.EmailAddress ? emailAddressProblem(item.EmailAddress) : undefined;
  if (!item.EmailAddress) mailProblem = 'The account gave no e-mail address.';
  else if (addressProblem) mailProblem = `Not mailed: ${addressProblem}`;
  else {
    try {
      await deps.sendMail({ to: item.EmailAddress, ...answerMail(item, body) });
      mailed = true;
    } catch (err) {
      mailProblem = (err as Error).message;
    }
  }
  const staffName = staff.impersonator?.username ?? staff.username;
  await deps.store.exclusive((q) =>
    insertAnswer(q, { kind, itemId: id, accountId: item.AccountId, staffUserId: staff.impersonator?.userId ?? staff.userId, staffName, text: body, mailed, mailProblem }),
  );
  return (await deps.store.read((q) => findFeedbackItem(q, kind, id)))!;
}

export function accountAnswers(deps: FeedbackDeps, p: Principal): Promise<AccountFeedbackAnswer[]> {
  return deps.store.read((q) => answersForAccount(q, p.accountId, 100));
}
