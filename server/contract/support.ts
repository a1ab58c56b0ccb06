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
