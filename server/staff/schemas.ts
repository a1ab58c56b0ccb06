// Response schemas of the staff calls (the OpenAPI document; server/contract/staff.ts).
import { FeedbackKind, LookupMatchKind, UserEventKind } from '../contract/staff.js';

const str = { type: 'string' } as const;
const bool = { type: 'boolean' } as const;
const int = { type: 'integer' } as const;
const nullableStr = { type: ['string', 'null'] } as const;
const object = (properties: Record<string, unknown>) => ({ type: 'object', required: Object.keys(properties), properties });
const list = (items: unknown) => ({ type: 'array', items });

export const SignInSessionSchema = object({
  Id: int,
  UserId: int,
  UserName: str,
  AccountId: int,
  AccountName: str,
  SignedInAt: str,
  Address: str,
  UserAgent: str,
  Persistent: bool,
  Active: bool,
  RevokedAt: nullableStr,
  RevokedBy: str,
});
export const SignInSessionListSchema = list(SignInSessionSchema);

export const UserEventListSchema = list(
  object({ Id: int, Time: str, Kind: { type: 'string', enum: Object.values(UserEventKind) }, Method: str, Route: str, Status: int, Address: str, Detail: str }),
);

export const StaffUserListSchema = list(
  object({ Id: int, Name: str, EmailAddress: str, AccountId: int, AccountName: str, Roles: list(str), IsRoot: bool }),
);

const FeedbackAnswerSchema = object({ Id: int, Time: str, StaffName: str, Text: str, Mailed: bool, MailProblem: str });
export const FeedbackItemSchema = object({
  Kind: { type: 'string', enum: Object.values(FeedbackKind) },
  Id: int,
  Time: str,
  AccountId: int,
  AccountName: str,
  UserId: int,
  UserName: str,
  EmailAddress: str,
  Rating: int,
  Text: str,
  HelpRequested: bool,
  Context: str,
  Answers: list(FeedbackAnswerSchema),
});
export const FeedbackItemListSchema = list(FeedbackItemSchema);
export const AccountFeedbackAnswerListSchema = list(
  object({ Kind: { type: 'string', enum: Object.values(FeedbackKind) }, ItemId: int, About: str, Time: str, Text: str }),
);

export const LookupMatchListSchema = list(
  object({ Kind: { type: 'string', enum: Object.values(LookupMatchKind) }, AccountId: int, AccountName: str, Matched: str, UserId: { type: ['integer', 'null'] } }),
);

export const PingServerListSchema = list(
  object({
    Id: int,
    UniqueId: str,
    Name: str,
    AccountId: int,
    AccountName: str,
    Engine: str,
    Connected: bool,
    LastSeen: nullableStr,
    Version: str,
    ActiveSessions: int,
    SamplesPerMinute: int,
  }),
);
