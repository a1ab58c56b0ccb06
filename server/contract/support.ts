// The support ticket of spec 1 section 7 (POST /cmd/sendsupportticket): what the console's
// dialog sends in the query; the console's error log travels as the JSON body.
export interface SupportTicket {
  name: string;
  email: string;
  problemStatement: string;
}

/** The answer: the stored ticket's id. */
export interface SupportTicketResult {
  Id: number;
}

/**
 * What became of a ticket's mail to the operator (issue 41 item 11; docs/staff.md "Support
 * tickets"): null while it is on its way or when none was sent (the hosted flavour).
 */
export interface SupportTicketMail {
  /** The operator's address it went (or was to go) to; '' when none is set. */
  To: string;
  /** '' when the mail server took it, else why it was not sent. */
  Problem: string;
  Time: string;
}

/** One ticket as the root user's Support Tickets page lists it (GET /api/support/tickets). */
export interface SupportTicketItem {
  Id: number;
  Time: string;
  AccountName: string;
  UserName: string;
  /** The name and e-mail the dialog gave ('' when left out). */
  Name: string;
  EmailAddress: string;
  ProblemStatement: string;
  /** Characters of the console's error log sent with it (GET /api/support/tickets/{id}/errorlog). */
  ErrorLogChars: number;
  Mail: SupportTicketMail | null;
}
