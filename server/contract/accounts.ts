// Accounts of the cloud flavour (issue 23): the staff Accounts page's calls and the
// /subscription page's. The spec names the pages, not these calls; docs/accounts.md.

/** One account as staff see it (GET /api/staff/accounts). */
export interface StaffAccount {
  Id: number;
  Name: string;
  /** Epoch ms. */
  CreatedAt: number;
  Plan: string;
  /** Remote traces the account may run at once (its own or the appliance's default). */
  EntitledTraces: number;
  /** Agents the account may have; null: no limit. */
  EntitledAgents: number | null;
  Suspended: boolean;
  SuspendedReason: string;
  /** The provider's own account (the staff users'); it cannot be suspended. */
  IsProvider: boolean;
  /**
   * May trace from the Local Machine (the provider's server, agent -1): always for the
   * provider's account, for a customer only when staff grant it (docs/accounts.md).
   */
  LocalMachine: boolean;
  Users: number;
  Agents: number;
  ActiveTraces: number;
}

/** POST /api/staff/accounts: a new account and its first user (all assignable claims). */
export interface CreateAccountRequest {
  Name: string;
  Plan?: string;
  EntitledTraces?: number;
  EntitledAgents?: number | null;
  /** The first user's e-mail address (also their user name). */
  UserEmail: string;
  /** Grants the Local Machine (default false: the account traces from its own agents). */
  LocalMachine?: boolean;
}

/** The answer: the account, and the first user's one-time password (shown once, to hand over). */
export interface CreatedAccount {
  Account: StaffAccount;
  UserId: number;
  UserName: string;
  TemporaryPassword: string;
}

/** PATCH /api/staff/accounts/:id: entitlements; a field left out keeps its value. */
export interface SetEntitlementsRequest {
  Plan?: string;
  EntitledTraces?: number;
  /** null: no limit. */
  EntitledAgents?: number | null;
  /** Grants (true) or takes back (false) the Local Machine; taken back, its running traces pause. */
  LocalMachine?: boolean;
}

/** POST /api/staff/accounts/:id/suspend. */
export interface SuspendRequest {
  Suspended: boolean;
  Reason?: string;
}

/** GET /api/subscription: the account's plan and use (the Agents Overview cards' figures). */
export interface Subscription {
  AccountName: string;
  Plan: string;
  EntitledTraces: number;
  ActiveTraces: number;
  EntitledAgents: number | null;
  OnlineAgents: number;
  OfflineAgents: number;
  PendingAgents: number;
}

export const AccountNameMaxLength = 100;
export const PlanNameMaxLength = 60;
export const EntitlementMax = 100_000;

/** The Error text when a suspended account's user signs in. */
export const SuspendedAccountText = 'This account is suspended. Contact your provider to restore it.';

/** The 409 when creating an agent past the account's entitled agents. */
export const agentCapacityText = (entitled: number): string =>
  `Your subscription allows ${entitled} agent${entitled === 1 ? '' : 's'}. Delete an agent or upgrade your capacity on the Subscription page.`;

/**
 * The refusal (409, as the capacity refusal: a 403 would sign the console out) of a trace, or
 * the Local Machine's interfaces, asked by a customer of the hosted flavour without the grant.
 */
export const LocalMachineRefusedText =
  "In Hopwatch Cloud the Local Machine is the provider's: trace from one of your own agents (Agents > Add agent).";

/** GET /api/Account/HubToken (cloud): the bearer token the console's hub connection sends. */
export interface HubToken {
  Token: string;
}
