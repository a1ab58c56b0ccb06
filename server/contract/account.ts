// Account DTOs and enums of spec 1 section 3 and 6, shared by server/ and web/.

/** Deployment mode numbers of spec 1 section 1. */
export const DeploymentMode = { SelfHosted: 0, Cloud: 1 } as const;
export type DeploymentMode = (typeof DeploymentMode)[keyof typeof DeploymentMode];

/** Licence mode numbers of spec 1 section 1 / spec 3 section 10. */
export const LicenseMode = { Unknown: 0, Standard: 1, Professional: 3, Free: 100, Sidekick: 112 } as const;
export type LicenseMode = (typeof LicenseMode)[keyof typeof LicenseMode];
export const LicenseModeName: Record<LicenseMode, string> = { 0: 'Unknown', 1: 'Standard', 3: 'Professional', 100: 'Free', 112: 'Sidekick' };

/** Permission claims of spec 1 section 6. */
export const Claim = {
  UserManagement: 'UserManagement',
  TargetManagement: 'TargetManagement',
  SummaryManagement: 'SummaryManagement',
  CloudConnectManagement: 'CloudConnectManagement',
  SessionManagement: 'SessionManagement',
  AlertsManagement: 'AlertsManagement',
  SettingsManagement: 'SettingsManagement',
  Staff: 'Staff',
  ImpersonateUser: 'ImpersonateUser',
  IsImpersonating: 'IsImpersonating',
  /** The temporary-password flag: present until the user picks a password of their own. */
  TempPassword: 'temppassword',
} as const;
export type Claim = (typeof Claim)[keyof typeof Claim];

/** Claims a web user can be given (the roles list of GET /api/user/api/roles). */
export const AssignableClaims: readonly Claim[] = [
  Claim.UserManagement,
  Claim.TargetManagement,
  Claim.SummaryManagement,
  Claim.CloudConnectManagement,
  Claim.SessionManagement,
  Claim.AlertsManagement,
  Claim.SettingsManagement,
  // Root holds it and may grant it (issue 26); impersonation never reaches root or more claims.
  Claim.ImpersonateUser,
];

/** Feature flags seen in the spec. */
export const Flag = { Pp2Import: 'pp2import', InsightDetail: 'insight-detail' } as const;

/** Current user, spec 1 section 3. */
export interface CurrentUser {
  Username: string;
  Message: string;
  IsLiveshare: boolean;
  IsUser: boolean;
  IsRoot: boolean;
  LicenseMode: LicenseMode;
  Claims: string[];
  Flags: string[];
}

/** Body of POST /api/Account/Login. */
export interface LoginRequest {
  Username: string;
  Password: string;
  RememberMe: boolean;
}

/** Every error body the server sends. */
export interface ErrorBody {
  Error: string;
}

/** Longest password accepted anywhere (spec 1 section 9). */
export const PasswordMaxLength = 45;

/** Header the server sets when the trial has expired (spec 1 section 4). */
export const ExpiredTrialHeader = 'expired-trial';

/**
 * A web user signed in with a password someone else set (the temppassword claim) may make
 * only the calls the change-password screen needs; every other call answers 403 with this
 * text and the header below (spec 1 section 2's warning, and what to do).
 */
export const TemporaryPasswordText = "You're using a temporary password. Change your password to continue.";
export const TemporaryPasswordHeader = 'temporary-password';

/** A user the caller may impersonate (GET /api/Account/Impersonate). */
export interface ImpersonationCandidate {
  Id: number;
  Name: string;
  EmailAddress: string;
  Roles: string[];
}

/** What an impersonation audit row says happened. */
export const ImpersonationAction = { Start: 'start', End: 'end', Call: 'call' } as const;
export type ImpersonationAction = (typeof ImpersonationAction)[keyof typeof ImpersonationAction];

/** One row of GET /api/user/ImpersonationAudit: who, as whom, what, when, from where. */
export interface ImpersonationAuditEntry {
  Id: number;
  /** ISO 8601 time. */
  Time: string;
  Actor: string;
  ActorId: number;
  AsUser: string;
  AsUserId: number;
  Action: ImpersonationAction;
  /** "POST /api/user/7" or "hub CreateSummary" for a call; empty for start and end. */
  Detail: string;
  /** The answer's status for a REST call; 0 when none applies. */
  Status: number;
  Address: string;
}
