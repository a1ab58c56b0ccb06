// JSON schemas of the accounts calls: request bodies, and answers for the OpenAPI document
// (test/api/openapi.test.ts checks real answers against them).
import { AccountNameMaxLength, EntitlementMax, PlanNameMaxLength } from '../contract/accounts.js';
import { emailAddressArg } from '../users/email-address.js';

const str = { type: 'string' } as const;
const bool = { type: 'boolean' } as const;
const int = { type: 'integer' } as const;
const nullableInt = { type: ['integer', 'null'] } as const;
const object = (properties: Record<string, unknown>) => ({ type: 'object', required: Object.keys(properties), properties });

export const StaffAccountSchema = object({
  Id: int,
  Name: str,
  CreatedAt: int,
  Plan: str,
  EntitledTraces: int,
  EntitledAgents: nullableInt,
  Suspended: bool,
  SuspendedReason: str,
  IsProvider: bool,
  LocalMachine: bool,
  Users: int,
  Agents: int,
  ActiveTraces: int,
});
export const StaffAccountListSchema = { type: 'array', items: StaffAccountSchema };
export const CreatedAccountSchema = object({ Account: StaffAccountSchema, UserId: int, UserName: str, TemporaryPassword: str });
export const SubscriptionSchema = object({
  AccountName: str,
  Plan: str,
  EntitledTraces: int,
  ActiveTraces: int,
  EntitledAgents: nullableInt,
  OnlineAgents: int,
  OfflineAgents: int,
  PendingAgents: int,
});

const entitlement = { type: 'integer', minimum: 0, maximum: EntitlementMax } as const;
const nullableEntitlement = { type: ['integer', 'null'], minimum: 0, maximum: EntitlementMax } as const;

export const CreateAccountBody = {
  type: 'object',
  required: ['Name', 'UserEmail'],
  additionalProperties: false,
  properties: {
    Name: { type: 'string', maxLength: AccountNameMaxLength },
    Plan: { type: 'string', maxLength: PlanNameMaxLength },
    EntitledTraces: entitlement,
    EntitledAgents: nullableEntitlement,
    UserEmail: emailAddressArg,
    LocalMachine: bool,
  },
} as const;

export const SetEntitlementsBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    Plan: { type: 'string', maxLength: PlanNameMaxLength },
    EntitledTraces: entitlement,
    EntitledAgents: nullableEntitlement,
    LocalMachine: bool,
  },
} as const;

export const SuspendBody = {
  type: 'object',
  required: ['Suspended'],
  additionalProperties: false,
  properties: { Suspended: { type: 'boolean' }, Reason: { type: 'string', maxLength: 500 } },
} as const;

export const HubTokenSchema = object({ Token: str });
