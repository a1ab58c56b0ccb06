// The LiveShare calls of spec 1 section 7, through the console's fetch wrapper.
import type { AddLinkHistoryInput, LinkHistory, LiveShareLink, LiveShareLinkInput } from '../../../server/contract/liveshare';
import { get, post, request, withQuery } from '../api/http';

export const listLinks = () => get<LiveShareLink[]>('/api/liveshare');
export const linksForSummary = (summaryID: string) => get<LiveShareLink[]>(withQuery('/api/liveshare/GetLinksForSummary', { summaryID }));
export const getLink = (shareId: string) => get<LiveShareLink>(`/api/liveshare/${encodeURIComponent(shareId)}`);
export const createLink = (input: LiveShareLinkInput) => post<LiveShareLink>('/api/liveshare', { json: input });
export const updateLink = (shareId: string, input: LiveShareLinkInput) => request<LiveShareLink>('PUT', `/api/liveshare/${encodeURIComponent(shareId)}`, { json: input });
export const deleteLink = (shareId: string) => request<null>('DELETE', withQuery('/api/liveshare/DeleteLink', { shareId }));
export const addLinkHistory = (input: AddLinkHistoryInput) => request<LinkHistory>('PUT', '/api/liveshare/AddLinkHistory', { json: input });
export const historyForLink = (shareId: string) => get<LinkHistory[]>(withQuery('/api/liveshare/GetHistoryForLink', { shareId }));
