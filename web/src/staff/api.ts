// The staff area's calls (server/staff/; docs/staff.md), one function each.
import type { FeedbackItem, FeedbackKind, LookupMatch, PingServer, SignInSession, StaffUser, UserEvent, UserEventKind } from '../../../server/contract/staff';
import { get, post, request, withQuery } from '../api/http';

export const listSignInSessions = async (q: { accountId?: number; userId?: number; activeOnly?: boolean }) =>
  (await get<SignInSession[]>(withQuery('/api/staff/sessionaudit', q))) ?? [];

export const revokeSignInSession = (id: number) => request<SignInSession>('DELETE', `/api/staff/sessionaudit/${id}`);

export const findStaffUsers = async (search: string) => (await get<StaffUser[]>(withQuery('/api/staff/users', { search: search || undefined }))) ?? [];

export const listUserEvents = async (userId: number, kind?: UserEventKind) =>
  (await get<UserEvent[]>(withQuery(`/api/staff/userandevents/${userId}`, { kind }))) ?? [];

export const listFeedback = async (q: { kind?: FeedbackKind; unansweredOnly?: boolean }) => (await get<FeedbackItem[]>(withQuery('/api/staff/feedback', q))) ?? [];

export const answerFeedback = (kind: FeedbackKind, id: number, text: string) => post<FeedbackItem>(`/api/staff/feedback/${kind}/${id}/answer`, { json: { Text: text } });

export const lookUp = async (text: string) => (await get<LookupMatch[]>(withQuery('/api/staff/lookup', { text }))) ?? [];

export const listPingServers = async () => (await get<PingServer[]>('/api/staff/pingservers')) ?? [];
