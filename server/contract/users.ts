// Web user DTOs of spec 1 section 3.

export interface WebUser {
  Id: number;
  Name: string;
  EmailAddress: string;
  /** Claim storage strings. */
  Roles: string[];
  IsRoot: boolean;
}

export interface RoleClaim {
  DisplayString: string;
  StorageString: string;
}

/** How long an activation link works (server/activation/, docs/users.md). */
export const ActivationLinkHours = 24;

/** The console page a link opens; the token travels in the fragment (#...), never to a server log. */
export const ActivationPagePath = '/activate';

/** POST /api/user/SendActivationLink?email answers this. */
export interface ActivationLinkSent {
  EmailAddress: string;
  /** ISO 8601 UTC: when the link stops working. */
  ExpiresAt: string;
  Message: string;
}

/** POST /api/Account/ActivationLink (body ActivationTokenRequest): whom a working link is for. */
export interface ActivationLinkInfo {
  /** The name the user signs in with. */
  Username: string;
  EmailAddress: string;
  ExpiresAt: string;
}

export interface ActivationTokenRequest {
  Token: string;
}

/** POST /api/Account/Activate: sets the user's own password and uses the link up. */
export interface ActivateRequest {
  Token: string;
  NewPassword: string;
}
