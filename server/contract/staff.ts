// The staff area's DTOs (spec 1 section 2: /staff/sessionaudit, /staff/userandevents,
// /staff/feedback, /staff/lookup, /staff/pingserver-management). The spec names the pages
// and the Staff claim but no call shapes: these calls live under /api/staff/ (docs/staff.md).

/** One sign-in session (spec "sign-in sessions with time, address and agent"). */
export interface SignInSession {
  /** The record's own id (never the token or its hash). */
  Id: number;
  UserId: number;
  UserName: string;
  AccountId: number;
  AccountName: string;
  /** ISO time of the sign-in. */
  SignedInAt: string;
  Address: string;
  UserAgent: string;
  /** Kept for 30 days (RememberMe) or a browser session. */
  Persistent: boolean;
  /** Still signed in: the login session exists and has not expired. */
  Active: boolean;
  /** ISO time a staff member revoked it, or null. */
  RevokedAt: string | null;
  RevokedBy: string;
}

/** Kinds of a user's recent events. */
export const UserEventKind = { SignIn: 'SignIn', SignInFailed: 'SignInFailed', Change: 'Change', Error: 'Error' } as const;
export type UserEventKind = (typeof UserEventKind)[keyof typeof UserEventKind];

export interface UserEvent {
  Id: number;
  Time: string;
  Kind: UserEventKind;
  /** HTTP method and route pattern (never the query: it may carry a password). */
  Method: string;
  Route: string;
  Status: number;
  Address: string;
  /** The impersonating staff member or user, when the call was made while impersonating. */
  Detail: string;
}

/** A user found for the Users and Events page. */
export interface StaffUser {
  Id: number;
  Name: string;
  EmailAddress: string;
  AccountId: number;
  AccountName: string;
  Roles: string[];
  IsRoot: boolean;
}

/** What a piece of feedback is: an Insights rating or a support ticket. */
export const FeedbackKind = { Insight: 'Insight', Ticket: 'Ticket' } as const;
export type FeedbackKind = (typeof FeedbackKind)[keyof typeof FeedbackKind];

export interface FeedbackAnswer {
  Id: number;
  Time: string;
  StaffName: string;
  Text: string;
  /** Whether the mail to the account went out (false: no mail server, or it refused). */
  Mailed: boolean;
  MailProblem: string;
}

export interface FeedbackItem {
  Kind: FeedbackKind;
  Id: number;
  Time: string;
  AccountId: number;
  AccountName: string;
  UserId: number;
  UserName: string;
  /** Where an answer is mailed: the ticket's address, else the user's. */
  EmailAddress: string;
  /** Insight: the rating 1-6 (spec 3 Feedback Rating); Ticket: 0. */
  Rating: number;
  /** Insight: the comments; Ticket: the problem statement. */
  Text: string;
  HelpRequested: boolean;
  /** Insight: the session (target) id and the test's title from ContextJson. */
  Context: string;
  Answers: FeedbackAnswer[];
}

/** What an account sees of the answers to its feedback and tickets (GET /api/support/Answers). */
export interface AccountFeedbackAnswer {
  Kind: FeedbackKind;
  ItemId: number;
  /** The start of what was sent, so the answer can be placed. */
  About: string;
  Time: string;
  Text: string;
}

export const LookupMatchKind = { UserName: 'UserName', Email: 'Email', Agent: 'Agent', Target: 'Target', LiveShare: 'LiveShare', Account: 'Account' } as const;
export type LookupMatchKind = (typeof LookupMatchKind)[keyof typeof LookupMatchKind];

export interface LookupMatch {
  Kind: LookupMatchKind;
  AccountId: number;
  AccountName: string;
  /** What matched: the user name, the e-mail, the agent's id and name, the target, the link. */
  Matched: string;
  /** A user of the account to impersonate or read events of (the match's user, else its first user). */
  UserId: number | null;
}

/** A probing engine: the built-in Local Machine engine (-1) or a remote agent. */
export interface PingServer {
  /** -1 for the built-in engine, else the agent's id. */
  Id: number;
  UniqueId: string;
  Name: string;
  AccountId: number;
  AccountName: string;
  /** "raw sockets", "simulated", or "agent". */
  Engine: string;
  Connected: boolean;
  /** ISO time of its last message, or null (never seen); the built-in engine: now. */
  LastSeen: string | null;
  Version: string;
  /** Sessions tracing now (state Active). */
  ActiveSessions: number;
  /** Hop samples stored over the last minute. */
  SamplesPerMinute: number;
}
