// The staff Accounts page's REST calls (server/accounts/plugin.ts).
import type { CreateAccountRequest, CreatedAccount, SetEntitlementsRequest, StaffAccount, SuspendRequest } from '../../../server/contract/accounts';
import { get, patch, post } from '../api/http';

export const listAccounts = async () => (await get<StaffAccount[]>('/api/staff/accounts')) ?? [];

export const createAccount = (req: CreateAccountRequest) => post<CreatedAccount>('/api/staff/accounts', { json: req });

export const setEntitlements = (id: number, req: SetEntitlementsRequest) => patch<StaffAccount>(`/api/staff/accounts/${id}`, { json: req });

export const suspendAccount = (id: number, req: SuspendRequest) => post<StaffAccount>(`/api/staff/accounts/${id}/suspend`, { json: req });
