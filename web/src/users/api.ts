// The web users screen's REST calls (spec 1 section 7 "Web users").
import type { ActivationLinkSent, RoleClaim, WebUser } from '../../../server/contract/users';
import { get, patch, post, request, withQuery } from '../api/http';

export const listRoles = async () => (await get<RoleClaim[]>('/api/user/api/roles')) ?? [];

export const listUsers = async (filter?: string) => (await get<WebUser[]>(withQuery('/api/user', { filter: filter || undefined }))) ?? [];

// Passwords go in the JSON body, never the URL: a reverse proxy logs URLs (the server accepts
// the spec's query form too, server/account/password-fields.ts).
export const createUser = (user: WebUser, password: string) => post<WebUser>('/api/user', { json: { ...user, password } });

/** The whole user goes back with the updated Roles. */
export const updateUser = (user: WebUser) => patch<WebUser>(`/api/user/${user.Id}`, { json: user });

/** Only the new password is sent; the user must replace it at their next sign-in. */
export const setUserPassword = (id: number, newPassword: string) => patch<null>('/api/user', { json: { id, newPassword } });

export const deleteUser = (id: number) => request<null>('DELETE', `/api/user/${id}`);

/** Mails the user a one-time link to set their own password (server/activation/). */
export const sendActivationLink = (email: string) => post<ActivationLinkSent>(withQuery('/api/user/SendActivationLink', { email }));
