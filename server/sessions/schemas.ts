// The session list command's shape, one schema for the REST bodies and the hub's arguments
// (both doors refuse the same input the same way), and the answers for the OpenAPI document.
import { SessionListCommandType } from '../contract/sessions.js';
import { int32, recordId } from '../http/schemas.js';

export const sessionIdsArg = { type: 'array', minItems: 1, maxItems: 10_000, items: recordId } as const;
export const pingServerIdArg = int32;
export const commandTypeArg = { type: 'integer', enum: Object.values(SessionListCommandType) } as const;

/** Body of PATCH/DELETE /api/Sessions and PATCH /api/Sessions/PerformSessionListCommand. */
export const sessionListCommandBody = (typeRequired: boolean) =>
  ({
    type: 'object',
    required: typeRequired ? ['Type', 'IDs'] : ['IDs'],
    additionalProperties: false,
    properties: { Type: commandTypeArg, IDs: sessionIdsArg, PingServerId: pingServerIdArg },
  }) as const;

const str = { type: 'string' } as const;
const int = { type: 'integer' } as const;
const nullableInt = { type: ['integer', 'null'] } as const;
const object = (properties: Record<string, unknown>) => ({ type: 'object', required: Object.keys(properties), properties });

export const SessionSchema = object({
  SessionID: int,
  StartTime: str,
  EndTime: { type: ['string', 'null'] },
  TargetDescription: str,
  TargetIP: str,
  TargetName: str,
  PersistenceMode: int,
  AdHocLoadCycles: int,
  SampleCount: int,
  OriginalTarget: str,
  State: int,
  StateString: str,
  DynamicDnsMode: int,
  SentinelID: nullableInt,
  HubSentinelID: nullableInt,
  HubSessionID: nullableInt,
  CollectorMode: int,
  MagnetoID: nullableInt,
  CloudConnectAccountId: nullableInt,
  AgentName: str,
  Imported: { type: 'boolean' },
});
export const SessionListSchema = { type: 'array', items: SessionSchema } as const;
export const SessionListCommandResultSchema = object({ Type: int, IDs: { type: 'array', items: int }, DownloadUrls: { type: 'array', items: str } });
