// What the Support Tickets page says about a ticket's mail to the operator.
import type { SupportTicketMail } from '../../../../server/contract/support';

export interface MailStatus {
  text: string;
  ok: boolean;
}

export function mailStatus(mail: SupportTicketMail | null): MailStatus {
  // On its way, or a ticket from before mails were recorded (or cut short by a restart).
  if (!mail) return { text: 'No mail recorded', ok: false };
  if (!mail.Problem) return { text: `Mailed to ${mail.To}`, ok: true };
  return { text: `Not mailed: ${mail.Problem}`, ok: false };
}

/** "Ann <ann@example.org> (user admin)": who sent it, with what the dialog gave first. */
export function senderText(t: { Name: string; EmailAddress: string; UserName: string }): string {
  const given = [t.Name, t.EmailAddress ? `<${t.EmailAddress}>` : ''].filter(Boolean).join(' ');
  return given ? `${given} (user ${t.UserName})` : t.UserName;
}
