// The Path view's arguments (REST query and hub arguments alike) and its answer's shape.
import { PathViewKind } from '../contract/path-view.js';
import { targetIdArg, timeArg } from '../data/schemas.js';

export const pathViewKindArg = { type: 'string', enum: [...PathViewKind] } as const;
/** A target id, or a summary id (with or without "SUM-"). */
export const pathViewIdArg = { anyOf: [targetIdArg, { type: 'string', pattern: '^(SUM-)?\\d{1,10}$', maxLength: 16 }] } as const;
export const pathViewTimeArg = timeArg;

const nullableNumber = { type: ['number', 'null'] } as const;
const nullableString = { type: ['string', 'null'] } as const;
const ids = { type: 'array', items: { type: 'integer' } } as const;

/** The answer, for the OpenAPI document (serialization keeps every field as the service returns it). */
export const PathViewAnswerSchema = {
  type: 'object',
  required: ['Kind', 'ID', 'Start', 'End', 'Sessions', 'Nodes', 'Edges', 'RouteChanges', 'StripIntervalSeconds', 'Strip'],
  properties: {
    Kind: pathViewKindArg,
    ID: { type: 'string' },
    Start: { type: 'string' },
    End: { type: 'string' },
    Sessions: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          SessionId: { type: 'integer' },
          TargetId: { type: 'string' },
          AgentId: { type: 'integer' },
          AgentName: { type: 'string' },
          TargetAddress: { type: 'string' },
          TargetName: { type: 'string' },
          TargetNodeId: nullableString,
        },
      },
    },
    Nodes: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          Id: { type: 'string' },
          Kind: { type: 'string', enum: ['Agent', 'Router', 'Silent', 'Target'] },
          Address: nullableString,
          Name: { type: 'string' },
          Asn: nullableNumber,
          AsName: nullableString,
          Country: nullableString,
          Special: nullableString,
          Mpls: { type: 'array', items: { type: 'object' } },
          Agents: { type: 'array', items: { type: 'object' } },
          LossStartPercent: nullableNumber,
          MutedLoss: { type: ['string', 'null'], enum: ['Silent', 'NotCarriedOn', null] },
          SessionIds: ids,
        },
      },
    },
    Edges: {
      type: 'array',
      items: { type: 'object', properties: { From: { type: 'string' }, To: { type: 'string' }, Weight: { type: 'integer' }, AddedLatencyMs: nullableNumber, SessionIds: ids } },
    },
    RouteChanges: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          Time: { type: 'string' },
          SessionId: { type: 'integer' },
          AgentName: { type: 'string' },
          TargetId: { type: 'string' },
          Hop: { type: 'integer' },
          Old: { type: 'array', items: { type: 'string' } },
          New: { type: 'array', items: { type: 'string' } },
        },
      },
    },
    StripIntervalSeconds: { type: 'integer' },
    Strip: { type: 'array', items: { type: 'object', properties: { Start: { type: 'string' }, LossPercent: nullableNumber, LatencyMs: nullableNumber } } },
  },
} as const;
