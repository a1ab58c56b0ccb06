// LiveShare DTOs of spec 1 section 3 / spec 3 section 3.4, shared by server/ and web/.

/** A read-only view link: a summary (SUM-{id}) or an agent's targets (AGT-{agentUniqueId}). */
export interface LiveShareLink {
  DbId: number;
  /** The link's public id (random, 128 bits): the first part of the viewer URL. */
  ShareId: string;
  /** The link's password (random, 128 bits): the second part of the viewer URL. */
  SecurePW: string;
  Description: string;
  Notes: string;
  Active: boolean;
  /** ISO 8601. */
  CreationDate: string;
  /** ISO 8601, or null: never expires. */
  ExpirationDate: string | null;
  /** SUM-{summaryId} or AGT-{agentUniqueId}. */
  SummaryID: string;
  TargetID: string;
  Account: number;
  CreatedByUser: string;
  /** Derived: {server}/LiveShare/{ShareId}/{SecurePW}. */
  LiveShareURL: string;
}

/** One entry of a link's history: a visit or a management action. */
export interface LinkHistory {
  DbId: number;
  LinkId: number;
  /** The link's ShareId. */
  Link: string;
  /** ISO 8601. */
  Date: string;
  IPAddress: string;
  Action: string;
  LogText: string;
}

/** Actions the server writes into a link's history (AddLinkHistory may name others). */
export const LinkHistoryAction = {
  Created: 'Created',
  Updated: 'Updated',
  Enabled: 'Enabled',
  Disabled: 'Disabled',
  Deleted: 'Deleted',
  Visit: 'Visit',
  WrongPassword: 'WrongPassword',
} as const;

/** Body of POST /api/liveshare (create) and PUT /api/liveshare/{shareId} (edit). */
export interface LiveShareLinkInput {
  Description?: string;
  Notes?: string;
  /** ISO 8601; null or "" means never (create), or keep (edit: leave out). */
  ExpirationDate?: string | null;
  /** Edit only: true enables, false disables. */
  Active?: boolean;
  SummaryID?: string;
  TargetID?: string;
}

/** Body of PUT /api/liveshare/AddLinkHistory. */
export interface AddLinkHistoryInput {
  ShareId: string;
  Action: string;
  LogText?: string;
}

/** Link scope kinds and item kinds of spec 1 section 3. */
export const LinkScope = { Account: 0, User: 1, AccountAndUser: 2 } as const;
export const ItemKind = { Summary: 0, Target: 1, LiveShare: 2, Agent: 3 } as const;

/** The viewer path of a link (spec 1 section 2): LiveShare/{shareId}/{password}. */
export const liveSharePath = (shareId: string, password: string) => `/LiveShare/${encodeURIComponent(shareId)}/${encodeURIComponent(password)}`;

/** The texts the console shows for LiveShare (spec 1 and 2). */
export const CantAddTargets = "Can't add new targets to a LiveShare link.";
