// Impersonation calls (issue 26): who may be impersonated, start, clear, and the audit.
import type { CurrentUser, ImpersonationAuditEntry, ImpersonationCandidate } from '../../../server/contract/account';
import { get, post, withQuery } from '../api/http';

export const listCandidates = async () => (await get<ImpersonationCandidate[]>('/api/Account/Impersonate')) ?? [];

export const startImpersonation = (userId: number) => post<CurrentUser>(withQuery('/api/Account/Impersonate', { userId }));

export const clearImpersonation = () => post<CurrentUser>('/api/Account/ClearImpersonation');

export const listAudit = async () => (await get<ImpersonationAuditEntry[]>('/api/user/ImpersonationAudit')) ?? [];
