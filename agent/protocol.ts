// The agent link (docs/agents.md): one WebSocket per agent at /agentLink, JSON text frames,
// authenticated by the agent's credential in the upgrade request. Shared by the server
// (server/agents/link.ts) and the agent program (agent/link-client.ts).
import type { HopOwner, MplsLabel, RouteChange, TraceHop, TraceOptions } from '../engine/index.js';
import { atMicrosecond } from '../engine/latency-codes.js';

export const AgentLinkPath = '/agentLink';
export const AgentEnrolPath = '/api/agent/enrol';
export const AgentProtocolVersion = 1;
/** Most rounds in one batch, and the largest frame the server reads. */
export const MaxBatchRounds = 2000;
export const MaxFrameBytes = 8 * 1024 * 1024;

/** A trace as the server assigns it (AgentTraceSpec without the server's agent id). */
export interface AssignedTrace {
  traceId: number;
  target: string;
  intervalMs: number;
  finalHopOnly: boolean;
  paused?: boolean;
  engine?: Omit<TraceOptions, 'target' | 'intervalSeconds' | 'finalHopOnly'>;
}

/** One hop as it travels; the details (issue 16) only when the engine reported them. */
export interface WireHop {
  ttl: number;
  address: string | null;
  name: string | null;
  rtt: number;
  mpls?: MplsLabel[];
  owner?: HopOwner;
  quotedDscp?: number;
  natDetected?: boolean;
}

/** One round as it travels: the engine's round without what the server does not store. */
export interface WireRound {
  traceId: number;
  time: number;
  hops: WireHop[];
}

/**
 * The wire form of an engine hop (absent details stay absent: most hops carry none), the
 * definition wireRoundText is held to (agent/protocol.test.ts). The latency travels at the
 * microsecond the server stores (nothing stored changes): shorter text to write, send and
 * parse than a double's 17 digits.
 */
export function wireHop(h: TraceHop): WireHop {
  const w: WireHop = { ttl: h.ttl, address: h.address, name: h.name, rtt: atMicrosecond(h.rtt) };
  if (h.mpls) w.mpls = h.mpls;
  if (h.owner) w.owner = h.owner;
  if (h.quotedDscp !== undefined) w.quotedDscp = h.quotedDscp;
  if (h.natDetected) w.natDetected = true;
  return w;
}

/** An owner's text in a hop (`,"owner":{...}`), made once per owner object: the engine keeps one per address. */
const ownerTexts = new WeakMap<HopOwner, string>();
/** Address text that needs no JSON escaping (the engine's IPv4 and IPv6 forms). */
const PlainAddress = /^[0-9A-Fa-f.:]+$/;

/**
 * A round's wire text: exactly JSON.stringify of { traceId, time, hops: hops.map(wireHop) }
 * (the test holds it to that), written without the wire objects and with each owner's text
 * made once. Every hop of a real path has an owner (its AS, or "Private"), half of its text;
 * serialising the round's objects was the agent's largest cost over the runtime alone
 * (docs/benchmarks.md).
 */
export function wireRoundText(traceId: number, round: { time: number; hops: readonly TraceHop[] }): string {
  let s = `{"traceId":${traceId},"time":${JSON.stringify(round.time)},"hops":[`;
  const hops = round.hops;
  for (let i = 0; i < hops.length; i++) {
    const h = hops[i];
    const address = h.address === null ? 'null' : PlainAddress.test(h.address) ? `"${h.address}"` : JSON.stringify(h.address);
    s += `${i > 0 ? ',' : ''}{"ttl":${h.ttl},"address":${address},"name":${JSON.stringify(h.name)},"rtt":${JSON.stringify(atMicrosecond(h.rtt))}`;
    if (h.mpls) s += `,"mpls":${JSON.stringify(h.mpls)}`;
    if (h.owner) {
      let owner = ownerTexts.get(h.owner);
      if (owner === undefined) ownerTexts.set(h.owner, (owner = `,"owner":${JSON.stringify(h.owner)}`));
      s += owner;
    }
    if (h.quotedDscp !== undefined) s += `,"quotedDscp":${h.quotedDscp}`;
    if (h.natDetected) s += ',"natDetected":true';
    s += '}';
  }
  return `${s}]}`;
}

export type ServerMessage =
  /** After the hello: every trace this agent runs, replacing what it ran before. */
  | { t: 'assign'; traces: AssignedTrace[]; lastSeq: number }
  | { t: 'start'; trace: AssignedTrace }
  | { t: 'stop'; traceId: number }
  | { t: 'pause'; traceId: number }
  | { t: 'resume'; traceId: number }
  | { t: 'interval'; traceId: number; intervalMs: number }
  | { t: 'finalHop'; traceId: number; on: boolean }
  | { t: 'reresolve'; traceId: number; req: number }
  /** The batch is committed (or was already): the agent may forget it. */
  | { t: 'ack'; seq: number }
  /** The batch was refused and is not stored; resending it will not help. */
  | { t: 'refused'; seq: number; Error: string }
  /** Stop every trace, remove credentials and state, and exit (Delete And Uninstall). */
  | { t: 'uninstall' };

export type AgentMessage =
  | {
      t: 'hello';
      protocol: number;
      machineId: string;
      machineName: string;
      platform: number;
      version: string;
      mode: number;
      /** The machine's network interfaces (ID: the name probes can be sent from), for the settings editor. Older agents leave it out. */
      interfaces?: { ID: string; Name: string }[];
    }
  | { t: 'batch'; seq: number; rounds: WireRound[] }
  | { t: 'route'; traceId: number; change: RouteChange }
  | { t: 'resolved'; traceId: number; address: string; req?: number }
  | { t: 'traceError'; traceId: number; message: string };

const int = { type: 'integer', minimum: 0, maximum: 2147483647 } as const;
const shortText = (n: number) => ({ type: 'string', maxLength: n }) as const;

/** JSON schema of every message an agent may send (the server validates each frame). */
export const AgentMessageSchema = {
  oneOf: [
    {
      type: 'object',
      additionalProperties: false,
      required: ['t', 'protocol', 'machineId', 'machineName', 'platform', 'version', 'mode'],
      properties: {
        t: { const: 'hello' },
        protocol: int,
        machineId: shortText(200),
        machineName: shortText(200),
        platform: { type: 'integer', minimum: 0, maximum: 3 },
        version: shortText(50),
        mode: { type: 'integer', minimum: 0, maximum: 2 },
        interfaces: {
          type: 'array',
          maxItems: 64,
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['ID', 'Name'],
            properties: { ID: shortText(64), Name: shortText(400) },
          },
        },
      },
    },
    {
      type: 'object',
      additionalProperties: false,
      required: ['t', 'seq', 'rounds'],
      properties: {
        t: { const: 'batch' },
        seq: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
        rounds: {
          type: 'array',
          maxItems: MaxBatchRounds,
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['traceId', 'time', 'hops'],
            properties: {
              traceId: { type: 'integer', minimum: 1, maximum: 2147483647 },
              time: { type: 'number', minimum: 0, maximum: 8.64e15 },
              hops: {
                type: 'array',
                maxItems: 255,
                items: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['ttl', 'address', 'name', 'rtt'],
                  properties: {
                    ttl: { type: 'integer', minimum: 1, maximum: 255 },
                    address: { type: ['string', 'null'], maxLength: 64 },
                    name: { type: ['string', 'null'], maxLength: 255 },
                    rtt: { type: 'number', minimum: -1e12, maximum: 1e12 },
                    mpls: {
                      type: 'array',
                      maxItems: 16,
                      items: {
                        type: 'object',
                        additionalProperties: false,
                        required: ['label', 'exp', 'bottomOfStack', 'ttl'],
                        properties: {
                          label: { type: 'integer', minimum: 0, maximum: 0xfffff },
                          exp: { type: 'integer', minimum: 0, maximum: 7 },
                          bottomOfStack: { type: 'boolean' },
                          ttl: { type: 'integer', minimum: 0, maximum: 255 },
                        },
                      },
                    },
                    owner: {
                      type: 'object',
                      additionalProperties: false,
                      required: ['asn', 'asName', 'country', 'special'],
                      properties: {
                        asn: { type: ['integer', 'null'], minimum: 0, maximum: 4294967295 },
                        asName: { type: ['string', 'null'], maxLength: 200 },
                        country: { type: ['string', 'null'], maxLength: 8 },
                        special: { type: ['string', 'null'], maxLength: 100 },
                      },
                    },
                    quotedDscp: { type: 'integer', minimum: 0, maximum: 63 },
                    natDetected: { type: 'boolean' },
                  },
                },
              },
            },
          },
        },
      },
    },
    {
      type: 'object',
      additionalProperties: false,
      required: ['t', 'traceId', 'change'],
      properties: {
        t: { const: 'route' },
        traceId: int,
        change: {
          type: 'object',
          additionalProperties: false,
          required: ['time', 'ttl', 'previous', 'current'],
          properties: { time: { type: 'number' }, ttl: { type: 'integer', minimum: 1, maximum: 255 }, previous: shortText(64), current: shortText(64) },
        },
      },
    },
    {
      type: 'object',
      additionalProperties: false,
      required: ['t', 'traceId', 'address'],
      properties: { t: { const: 'resolved' }, traceId: int, address: shortText(64), req: int },
    },
    {
      type: 'object',
      additionalProperties: false,
      required: ['t', 'traceId', 'message'],
      properties: { t: { const: 'traceError' }, traceId: int, message: shortText(2000) },
    },
  ],
} as const;
