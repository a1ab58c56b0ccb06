// Support ticket call (spec 1 section 7): the stored error log travels as the JSON body.
import { post, withQuery } from './http';

export interface SupportTicket {
  name: string;
  email: string;
  problemStatement: string;
}

export const sendSupportTicket = (ticket: SupportTicket, errorLogJson: string) =>
  post<unknown>(withQuery('/cmd/sendsupportticket', { ...ticket }), { jsonText: errorLogJson });
