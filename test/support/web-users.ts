// Web users for tests. A password the admin sets is temporary, and a user who holds one may
// only change it (issue 26): createWebUser signs in once with a temporary password and
// replaces it with the one given, so the user is ready to call like anyone else.
import { signIn } from './appliance.js';

export interface CreatedWebUser {
  Id: number;
  Name: string;
  EmailAddress: string;
  Roles: string[];
}

/** A temporary password the policy accepts, never equal to `password`. */
export const temporaryFor = (password: string) => `Tmp-${password}`.slice(0, 45);

export async function createWebUser(
  url: string,
  adminCookie: string,
  user: { email: string; password: string; roles?: string[]; name?: string; temporary?: boolean },
): Promise<CreatedWebUser> {
  const temp = user.temporary ? user.password : temporaryFor(user.password);
  const r = await fetch(`${url}/api/user?password=${encodeURIComponent(temp)}`, {
    method: 'POST',
    headers: { cookie: adminCookie, 'content-type': 'application/json' },
    body: JSON.stringify({ Id: 0, Name: user.name ?? '', EmailAddress: user.email, Roles: user.roles ?? [], IsRoot: false }),
  });
  if (r.status !== 200) throw new Error(`creating ${user.email} failed: ${r.status} ${await r.text()}`);
  const created = (await r.json()) as CreatedWebUser;
  if (!user.temporary) await replaceTemporaryPassword(url, user.name || user.email, temp, user.password);
  return created;
}

/** Signs in with the temporary password and picks `password` (PATCH /api/Account). */
export async function replaceTemporaryPassword(url: string, login: string, temp: string, password: string): Promise<void> {
  const cookie = await signIn(url, login, temp);
  const q = new URLSearchParams({ currentPassword: temp, newPassword: password });
  const r = await fetch(`${url}/api/Account?${q}`, { method: 'PATCH', headers: { cookie } });
  if (r.status !== 200) throw new Error(`replacing the temporary password of ${login} failed: ${r.status} ${await r.text()}`);
  await fetch(`${url}/api/Account/Logout`, { method: 'POST', headers: { cookie } });
}
