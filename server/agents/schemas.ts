// JSON schemas of the agent calls' answers (OpenAPI; test/api/openapi.test.ts checks real answers).
const str = { type: 'string' } as const;
const bool = { type: 'boolean' } as const;
const int = { type: 'integer' } as const;

const object = (properties: Record<string, unknown>, optional: string[] = []) => ({
  type: 'object',
  required: Object.keys(properties).filter((k) => !optional.includes(k)),
  properties,
});

const agentProps = {
  ID: int,
  Name: str,
  UniqueID: str,
  IsOnline: bool,
  OpenSessions: int,
  TotalSessions: int,
  SecurityKey: str,
  Configured: bool,
  LastMessageUnixTime: { type: ['integer', 'null'] },
  MachineID: str,
  Platform: int,
  Version: str,
  TargetVersion: str,
  ServiceRunning: bool,
  MachineName: str,
  ClientDetails: str,
  Mode: int,
  OsDescription: str,
};

/** OsDescription: the Local Machine's (remote agents do not report one yet). */
export const AgentSchema = object(agentProps, ['OsDescription']);
/** The Local Machine carries only some of the details. */
export const AgentListSchema = { type: 'array', items: object(agentProps, Object.keys(agentProps).filter((k) => !['ID', 'Name', 'UniqueID', 'IsOnline'].includes(k))) };
export const EntitlementSchema = object({ ActiveTraces: int, EntitledTraces: int, UncountedLocalMachineTraces: int });
export const DownloadLinkSchema = object({ DownloadUrl: str, SetupLink: str, Server: str, ServerSource: { type: 'string', enum: ['PublicUrl', 'Browser', 'HostName'] }, Warning: str, Replaced: bool });
export const EnrolAnswerSchema = object({ Credential: str });

export const agentIdArg = { type: 'integer', minimum: 1, maximum: 2147483647 } as const;
export const agentNameArg = { type: 'string', maxLength: 1000 } as const;
export const agentKeyArg = { type: 'string', minLength: 10, maxLength: 200, pattern: '^[A-Za-z0-9_-]+$' } as const;
export const AgentTargetListSchema = {
  type: 'array',
  items: object({ ID: int, IPAddress: str, Name: str, LatestSample: { type: ['integer', 'null'] }, Paused: bool }),
};
