// What an import accepts in a file's metadata: every string and list bounded, every number
// finite and in range. A file from anywhere (hostile strings included) passes this before
// anything of it is written; the values then go into the store as statement parameters.
import { Ajv } from 'ajv';
import type { FileComment, FileConfiguration, FileHost, FileRange, FileRouteChange, FileTarget } from './format.js';

const text = (max: number) => ({ type: 'string', maxLength: max }) as const;
const time = { type: 'number', minimum: 0, maximum: 8.64e15 } as const;
const object = (properties: Record<string, unknown>) => ({ type: 'object', required: Object.keys(properties), properties });
const hop = { type: 'integer', minimum: 0, maximum: 255 } as const;

const schemas = {
  target: object({
    OriginalTarget: { type: 'string', minLength: 1, maxLength: 255 },
    TargetName: text(255),
    TargetIP: text(64),
    Description: text(1000),
    TraceIntervalMs: { type: 'integer', minimum: 100, maximum: 86_400_000 },
    DynamicDnsMode: { type: 'integer', enum: [0, 1] },
    FinalHopOnly: { type: 'boolean' },
    StartTime: time,
    EndTime: { anyOf: [time, { type: 'null' }] },
    AgentName: text(255),
    SourceSessionId: { type: 'integer' },
  }),
  range: object({
    Begin: { anyOf: [time, { type: 'null' }] },
    End: { anyOf: [time, { type: 'null' }] },
    Samples: { type: 'integer', minimum: 0 },
    Cut: { type: 'boolean' },
  }),
  configuration: object({ Name: text(200), Warn: { type: 'number', minimum: 0, maximum: 1e6 }, Bad: { type: 'number', minimum: 0, maximum: 1e6 }, Scale: { type: 'number', minimum: 0, maximum: 1e6 } }),
  hosts: { type: 'array', maxItems: 256, items: object({ Hop: hop, Address: text(64), DnsName: text(255), Name: text(1000), Notes: text(1000) }) },
  comments: { type: 'array', maxItems: 100_000, items: object({ When: time, Text: { type: 'string', minLength: 1, maxLength: 4000 }, Type: { type: 'integer', minimum: -2147483648, maximum: 2147483647 }, ExtraAttributesJson: text(16_384) }) },
  routeChanges: { type: 'array', maxItems: 1_000_000, items: object({ Time: time, Hop: hop, OldAddress: text(64), NewAddress: text(64) }) },
};

const ajv = new Ajv({ allErrors: false });
export const validators = {
  target: ajv.compile<FileTarget>(schemas.target),
  range: ajv.compile<FileRange>(schemas.range),
  configuration: ajv.compile<FileConfiguration>(schemas.configuration),
  hosts: ajv.compile<FileHost[]>(schemas.hosts),
  comments: ajv.compile<FileComment[]>(schemas.comments),
  routeChanges: ajv.compile<FileRouteChange[]>(schemas.routeChanges),
};
