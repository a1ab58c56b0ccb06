// The root user's support ticket calls (server/support/plugin.ts).
import type { SupportTicketItem } from '../../../server/contract/support';
import { get } from '../api/http';

export const listSupportTickets = async () => (await get<SupportTicketItem[]>('/api/support/tickets')) ?? [];
export const errorLogUrl = (id: number) => `/api/support/tickets/${id}/errorlog`;
