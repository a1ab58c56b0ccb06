// Support ticket call (spec 1 section 7): the stored error log travels as the JSON body.
import type { SupportTicket, SupportTicketResult } from '../../../server/contract/support';
import { post, withQuery } from './http';

export const sendSupportTicket = (ticket: SupportTicket, errorLogJson: string) =>
  post<SupportTicketResult>(withQuery('/cmd/sendsupportticket', { ...ticket }), { jsonText: errorLogJson });
