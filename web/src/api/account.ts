// Account calls of spec 1 section 7.
import type { CurrentUser, LoginRequest } from '../../../server/contract/account';
import { get, patch, post } from './http';

/** 401 here means "not signed in", which the route gates handle; no global redirect. */
export const getCurrentUser = () => get<CurrentUser>('/api/Account/GetCurrentUser', { authRedirect: false });

export const login = (body: LoginRequest) => post<CurrentUser>('/api/Account/Login', { json: body, authRedirect: false });

export const logout = () => post<null>('/api/Account/Logout', { authRedirect: false });

/**
 * currentPassword is sent only when given (self-hosted mode requires it). Both go in the JSON
 * body, never the URL: a reverse proxy logs URLs (the server accepts the spec's query form too).
 */
export const changePassword = (newPassword: string, currentPassword?: string) => patch<unknown>('/api/Account', { json: { currentPassword, newPassword } });
