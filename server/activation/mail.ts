// The activation mail: plain text and HTML. Names and addresses come from users, so every
// value is escaped in the HTML; the subject is fixed (no header injection through a name).
import addressparser from 'nodemailer/lib/addressparser/index.js';
import { ActivationPagePath } from '../contract/users.js';
import { MailError, type MailMessage, type MailResult, type SendMail } from '../mail/transport.js';
import { emailAddressProblem } from '../users/email-address.js';

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => escapes[c]);

export const ActivationSubject = 'Set your Hopwatch password';

/**
 * The link the mail carries: the console's activation page with the token in the fragment,
 * which browsers never send to a server, so no access log or proxy between sees it.
 */
export function activationLink(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${ActivationPagePath}#${token}`;
}

export interface ActivationMailFacts {
  to: string;
  /** The name the user signs in with. */
  username: string;
  /** Who sent the link (the admin's user name). */
  sentBy: string;
  link: string;
  expiresAt: Date;
}

const when = (d: Date) => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export function activationMail(f: ActivationMailFacts): MailMessage {
  const text = [
    'Hello,',
    '',
    `${f.sentBy} has given you a Hopwatch web user, ${f.username}. Open this link to set your own password:`,
    '',
    f.link,
    '',
    `The link works once, until ${when(f.expiresAt)}. Then sign in as ${f.username} with the password you chose.`,
    'If you did not expect this mail, ignore it: nothing changes unless the link is used.',
  ].join('\n');
  const e = escapeHtml;
  const html = [
    '<p>Hello,</p>',
    `<p>${e(f.sentBy)} has given you a Hopwatch web user, <b>${e(f.username)}</b>. Open this link to set your own password:</p>`,
    `<p><a href="${e(f.link)}">Set my password</a></p>`,
    `<p>The link works once, until ${e(when(f.expiresAt))}. Then sign in as <b>${e(f.username)}</b> with the password you chose.</p>`,
    '<p>If you did not expect this mail, ignore it: nothing changes unless the link is used.</p>',
  ].join('\n');
  return { to: f.to, subject: ActivationSubject, text, html };
}

/**
 * Sends an activation mail to its one recipient only: `to` must be exactly `address`, one
 * valid mailbox (server/users/email-address.ts), and the mailer must read it as one
 * recipient. The last check before the SMTP server: a text the mailer reads as a list
 * ("a@x.org, b@y.org") or with a header in it (CR LF "Bcc:") is refused, not sent.
 */
export async function sendToOneRecipient(sendMail: SendMail, mail: MailMessage, address: string): Promise<MailResult> {
  const problem = emailAddressProblem(address);
  if (problem) throw new MailError(`An activation mail goes to one valid address: ${problem}`);
  const recipients = typeof mail.to === 'string' ? addressparser(mail.to, { flatten: true }) : [];
  if (mail.to !== address || recipients.length !== 1 || recipients[0].address !== address) {
    throw new MailError('An activation mail goes to exactly one address: the user\'s.');
  }
  return sendMail(mail);
}
