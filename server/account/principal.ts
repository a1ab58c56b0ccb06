// Who is asking: resolved once per request (or hub connection) from the session cookie.
import { AssignableClaims, Claim, Flag, type CurrentUser, type LicenseMode } from '../contract/account.js';
import type { UserRecord } from '../users/repository.js';

export interface Principal {
  userId: number;
  accountId: number;
  username: string;
  isRoot: boolean;
  claims: string[];
  /**
   * The login session this principal signed in with (its token's SHA-256, never the token):
   * hub connections are re-checked and closed by it.
   */
  loginSession?: string;
}

/** Root holds every claim a web user can be given; a temporary password adds its flag. */
export function principalOf(user: UserRecord): Principal {
  const claims = user.isRoot ? [...AssignableClaims] : user.roles.filter((r) => (AssignableClaims as string[]).includes(r));
  if (user.tempPassword) claims.push(Claim.TempPassword);
  return { userId: user.id, accountId: user.accountId, username: user.name, isRoot: user.isRoot, claims };
}

export function currentUserOf(p: Principal, licenseMode: LicenseMode): CurrentUser {
  return {
    Username: p.username,
    Message: '',
    IsLiveshare: false,
    IsUser: true,
    IsRoot: p.isRoot,
    LicenseMode: licenseMode,
    Claims: [...p.claims],
    // Data files (DownloadPP2File, ImportPP2File) and detailed Insights runs are built: every user has the flags.
    Flags: [Flag.Pp2Import, Flag.InsightDetail],
  };
}
