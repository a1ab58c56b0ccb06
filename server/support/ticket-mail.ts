// The mail a support ticket makes for the operator (issue 41 item 11): plain text only, so
// nothing the user wrote is markup; the console's error log rides along as a JSON file; Reply
// goes to the address the user gave. The subject is one line (a newline in it would start a
// header), cut to a length mail clients show.
import type { MailMessage } from '../mail/transport.js';

export interface TicketForMail {
  id: number;
  accountName: string;
  userName: string;
  name: string;
  email: string;
  problemStatement: string;
  errorLog: string;
  /** The console's address for the Support Tickets page ('' when no public URL is known). */
  consoleUrl: string;
}

const oneLine = (s: string, max: number) => {
  const line = s.replace(/[\s\p{C}]+/gu, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

export function ticketMail(t: TicketForMail, to: string): MailMessage {
  const who = [t.name || t.userName, t.email ? `<${t.email}>` : ''].filter(Boolean).join(' ');
  const lines = [
    `Support ticket #${t.id} from ${who || 'a user'} (user ${t.userName}, account ${t.accountName}):`,
    '',
    t.problemStatement,
    '',
    `The console's error log (${t.errorLog.length.toLocaleString('en-US')} characters) is attached.`,
    t.consoleUrl ? `All tickets: ${t.consoleUrl}/support-tickets` : 'All tickets: Support Tickets in the console (root user).',
  ];
  return {
    to,
    subject: `Hopwatch support ticket #${t.id}: ${oneLine(t.problemStatement, 70)}`,
    text: `${lines.join('\n')}\n`,
    replyTo: t.email || undefined,
    attachments: [{ filename: `support-ticket-${t.id}-error-log.json`, content: t.errorLog, contentType: 'application/json' }],
  };
}
