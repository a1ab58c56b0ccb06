// JSON schemas of the answers the spec names, for the OpenAPI document. They describe the
// DTOs of server/contract/ (test/api/openapi.test.ts checks real answers against them);
// they do not shape what is sent: the app serializes with JSON.stringify (see plugin.ts).
import { DeploymentMode, LicenseMode } from '../contract/account.js';

const str = { type: 'string' } as const;
const bool = { type: 'boolean' } as const;
const int = { type: 'integer' } as const;
const num = { type: 'number' } as const;
const nullableNumber = { type: ['number', 'null'] } as const;

const object = (properties: Record<string, unknown>) => ({
  type: 'object',
  required: Object.keys(properties),
  properties,
});

export const ErrorBodySchema = object({ Error: str });

export const AppConfigSchema = object({
  DeploymentMode: { type: 'integer', enum: Object.values(DeploymentMode) },
  Version: str,
  InsightsEnabled: bool,
  Onboarding: bool,
  OnboardingTarget: str,
});

export const CurrentUserSchema = object({
  Username: str,
  Message: str,
  IsLiveshare: bool,
  IsUser: bool,
  IsRoot: bool,
  LicenseMode: { type: 'integer', enum: Object.values(LicenseMode) },
  Claims: { type: 'array', items: str },
  Flags: { type: 'array', items: str },
});

export const SummarySchema = object({
  UniqueID: str,
  Name: str,
  CanClose: bool,
  Editable: bool,
  IsAllTargets: bool,
  TargetCount: int,
  CanChangeTargets: bool,
});

export const SummaryListSchema = { type: 'array', items: SummarySchema };

export const TargetIdResultSchema = object({ ID: int });

const DataPointSchema = object({
  Period: str,
  IsStartTrace: bool,
  UnitNumber: int,
  FirstLatency: nullableNumber,
  LatencyMinimum: nullableNumber,
  LatencyMaximum: nullableNumber,
  Jitter: nullableNumber,
  AverageLatency: nullableNumber,
  LatencyCount: int,
  HasNotParticipating: bool,
  LostPacketCount: int,
  SampleSetIndexStart: int,
  SampleSetIndexEnd: int,
  RouteBitMask: num,
  RouteLength: int,
  RouteHostLatencies: { type: 'array', items: nullableNumber },
  RouteHostSentCount: { type: 'array', items: int },
  RouteHostLostCount: { type: 'array', items: int },
});

export const DataPointBucketsSchema = object({
  Points: { type: 'array', items: DataPointSchema },
  FirstDatapoint: { type: ['string', 'null'] },
  MostRecentDatapoint: { type: ['string', 'null'] },
  Outages: { type: 'array', items: object({ Reason: { type: 'string', enum: ['AgentOffline', 'ServerDown'] }, Start: str, End: { type: ['string', 'null'] } }) },
});

export const HealthSchema = object({ Status: str });

// LiveShare (spec 1 section 3): a link and an entry of its history.
export const LiveShareLinkSchema = object({
  DbId: int,
  ShareId: str,
  SecurePW: str,
  Description: str,
  Notes: str,
  Active: bool,
  CreationDate: str,
  ExpirationDate: { type: ['string', 'null'] },
  SummaryID: str,
  TargetID: str,
  Account: int,
  CreatedByUser: str,
  LiveShareURL: str,
});
export const LiveShareLinkListSchema = { type: 'array', items: LiveShareLinkSchema };
export const LinkHistorySchema = object({ DbId: int, LinkId: int, Link: str, Date: str, IPAddress: str, Action: str, LogText: str });
export const LinkHistoryListSchema = { type: 'array', items: LinkHistorySchema };

/** Settings editor (server/contract/settings.ts). */
export const PacketTypeListSchema = {
  type: 'array',
  items: object({ ID: str, Name: str, GenericPacketType: int, RequiredLicenseMode: int }),
};
export const NetworkInterfaceListSchema = { type: 'array', items: object({ ID: str, Name: str }) };
export const SettingsScreenSchema = object({ serializedTraits: str, html: str });

/** GET /api/Account/Impersonate (issue 26). */
export const ImpersonationCandidateListSchema = {
  type: 'array',
  items: object({ Id: int, Name: str, EmailAddress: str, Roles: { type: 'array', items: str } }),
};

/** GET /api/user/ImpersonationAudit (issue 26). */
export const ImpersonationAuditSchema = {
  type: 'array',
  items: object({
    Id: int,
    Time: str,
    Actor: str,
    ActorId: int,
    AsUser: str,
    AsUserId: int,
    Action: { type: 'string', enum: ['start', 'end', 'call'] },
    Detail: str,
    Status: int,
    Address: str,
  }),
};

/** Sidekick (issue 24, server/contract/sidekick.ts). */
export const SidekickTargetSchema = object({
  OriginalTarget: str,
  WebTargetID: str,
  Label: str,
  Description: str,
  ContentLink: str,
  ExportDetails: object({ NotFoundReason: str, DNSName: str, IP: str }),
  Kind: { type: 'string', enum: ['DefaultGateway', 'DnsResolver', 'ProviderEdge', 'External1', 'External2'] },
});
export const SidekickStateSchema = object({
  LicenseMode: { type: 'integer', enum: Object.values(LicenseMode) },
  SidekickAvailable: bool,
  SidekickSummaryID: int,
  Stage: { type: 'integer', enum: [0, 1, 2, 3, 4] },
  Targets: { type: 'array', items: SidekickTargetSchema },
  StartTime: { type: ['string', 'null'] },
});
export const SidekickPlannedSourceListSchema = {
  type: 'array',
  items: object({ Kind: SidekickTargetSchema.properties.Kind, Label: str, Description: str, Address: str, Note: str }),
};
export const SidekickShareUrlListSchema = { type: 'array', items: object({ TargetDefinition: SidekickTargetSchema, ShareUrl: str }) };
