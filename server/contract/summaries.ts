// Summary, comment and key-value DTOs (spec 2 section 3, spec 1 section 3).

export interface Summary {
  UniqueID: string;
  Name: string;
  CanClose: boolean;
  Editable: boolean;
  IsAllTargets: boolean;
  TargetCount: number;
  CanChangeTargets: boolean;
}

export interface Comment {
  Id: number;
  /** ISO time the comment refers to. */
  When: string;
  Text: string;
  Type: number;
  SessionWebId: string;
  ExtraAttributesJson: string;
}

/** Key-value scopes (spec 1 "Link scope kinds"). */
export const KvpScope = { Account: 0, User: 1, AccountAndUser: 2 } as const;
export type KvpScope = (typeof KvpScope)[keyof typeof KvpScope];
export const KvpScopeByName: Record<string, KvpScope> = { Account: 0, User: 1, AccountAndUser: 2 };

export const KvpKey = {
  OnboardingProgressV2: 'CloudConnect-OnboardingProgressV2',
  OnboardingProgressV1: 'CloudConnect-OnboardingProgressV1',
  TraceTargetHistory: 'TraceTargetHistory',
  InsightHideTip: 'Insight-HideTip-HowToUse',
  InsightOptIn: 'Insight-Opt-In',
} as const;

/** Display settings of a configuration (spec 2 "Configuration / display settings"). */
export interface DisplaySettings {
  id: number;
  name: string;
  Warn: number;
  Bad: number;
  /** 0 automatic, -2 follow the target graph scale, > 0 fixed ms. */
  Scale: number;
}

/** Name of the per-account pseudo summary that holds every open target. */
export const AllTargetsSummaryName = 'All Targets';
export const SummaryNameMaxLength = 200;
export const CommentTextMaxLength = 4000;
/** A comment may be dated at most this far ahead of the server clock (clock skew). */
export const CommentFutureToleranceMs = 60_000;
export const KvpKeyMaxLength = 200;
/** Longest stored value, in bytes of UTF-8. */
export const KvpValueMaxBytes = 64 * 1024;
/** Entries kept in a user's TraceTargetHistory. */
export const TraceHistoryMaxEntries = 50;
export const TraceHistoryEntryMaxLength = 255;

/** One named configuration as offered by the Settings picker (spec 2 "Settings list item"). */
export interface ConfigurationListItem {
  id: number;
  name: string;
  description: string;
}

/** A settings list item (spec 2, GET /cmd/getsettingslist): a configuration's id and name only. */
export interface SettingsListItem {
  id: number;
  name: string;
}
