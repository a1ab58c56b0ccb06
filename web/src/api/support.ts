// Support ticket call (spec 1 section 7): the stored error log travels as the JSON body.
import type { SupportTicket, SupportTicketResult } from '../../../server/contract/support';
import { post, withQuery } from './http';

export const sendSupportTicket = (ticket: SupportTicket, errorLogJson: string) =>
  post<SupportTicketResult>(withQuery('/cmd/sendsupportticket', { ...ticket }), { jsonText: errorLogJson });

/** POST /cmd/cloudconnect-agent-get-support: help with one agent (requestCloudConnectSupport needs id). */
export function requestCloudConnectSupport(id: number, ticket: SupportTicket, errorLogJson: string) {
  if (id === undefined || id === null) throw new Error('id is required.');
  return post<SupportTicketResult>(withQuery('/cmd/cloudconnect-agent-get-support', { id, ...ticket }), { jsonText: errorLogJson });
}
