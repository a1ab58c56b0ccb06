// The SignalR JSON hub protocol (dotnet/aspnetcore src/SignalR/docs/specs/HubProtocol.md):
// records are JSON texts each terminated by the ASCII record separator 0x1E.

import { jsonDepthExceeds, TooDeepText } from '../http/json-depth.js';

export const RECORD_SEPARATOR = '\u001e';

export const MessageType = {
  Invocation: 1,
  StreamItem: 2,
  Completion: 3,
  StreamInvocation: 4,
  CancelInvocation: 5,
  Ping: 6,
  Close: 7,
  Ack: 8,
  Sequence: 9,
} as const;

/** Invocation IDs are chosen by the client; anything longer is a protocol error (the spec allows a limit). */
export const MAX_INVOCATION_ID_LENGTH = 256;

export interface InvocationMessage {
  type: typeof MessageType.Invocation | typeof MessageType.StreamInvocation;
  invocationId?: string;
  target: string;
  arguments: unknown[];
  streamIds?: unknown[];
}

/** A client message the server acts on; anything else is a protocol error. */
export type ClientMessage =
  | InvocationMessage
  | { type: typeof MessageType.Ping }
  | { type: typeof MessageType.Close; error?: string }
  | { type: typeof MessageType.CancelInvocation; invocationId?: string }
  // Stream items, completions, acks and sequences from the client: this server never asks
  // for them (no client results, no upload streams, no stateful reconnect), so they are ignored.
  | { type: 2 | 3 | 8 | 9 };

export class ProtocolError extends Error {}

export function frame(message: object): string {
  return JSON.stringify(message) + RECORD_SEPARATOR;
}

export const PING_FRAME = frame({ type: MessageType.Ping });

export function handshakeResponseFrame(error?: string): string {
  return frame(error === undefined ? {} : { error });
}

export function invocationFrame(target: string, args: readonly unknown[]): string {
  return frame({ type: MessageType.Invocation, target, arguments: args });
}

export function completionResultFrame(invocationId: string, result: unknown): string {
  return result === undefined
    ? frame({ type: MessageType.Completion, invocationId })
    : frame({ type: MessageType.Completion, invocationId, result });
}

export function completionErrorFrame(invocationId: string, error: string): string {
  return frame({ type: MessageType.Completion, invocationId, error });
}

export function closeFrame(error?: string, allowReconnect?: boolean): string {
  const message: { type: number; error?: string; allowReconnect?: boolean } = { type: MessageType.Close };
  if (error !== undefined) message.error = error;
  if (allowReconnect) message.allowReconnect = true;
  return frame(message);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks the handshake request; returns an error text for the handshake response, or
 * undefined when the client asked for JSON version 1.
 */
export function checkHandshake(record: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(record);
  } catch {
    return 'Handshake request was not valid JSON.';
  }
  if (!isObject(parsed) || typeof parsed.protocol !== 'string' || typeof parsed.version !== 'number') {
    return 'Handshake request must be {"protocol":"json","version":1}.';
  }
  if (parsed.protocol !== 'json') return `Requested protocol '${parsed.protocol}' is not available.`;
  if (parsed.version !== 1) return `The server does not support version ${parsed.version} of the 'json' protocol.`;
  return undefined;
}

/** Parses one record into a client message, or throws ProtocolError with a reason. */
export function parseClientMessage(record: string): ClientMessage {
  let parsed: unknown;
  try {
    parsed = JSON.parse(record);
  } catch {
    throw new ProtocolError('A message was not valid JSON.');
  }
  if (jsonDepthExceeds(parsed)) throw new ProtocolError(TooDeepText);
  if (!isObject(parsed) || typeof parsed.type !== 'number') {
    throw new ProtocolError('A message had no numeric "type".');
  }
  switch (parsed.type) {
    case MessageType.Invocation:
    case MessageType.StreamInvocation: {
      const { invocationId, target, arguments: args, streamIds } = parsed;
      if (typeof target !== 'string') throw new ProtocolError('An invocation had no "target" string.');
      if (!Array.isArray(args)) throw new ProtocolError(`The invocation of '${target}' had no "arguments" array.`);
      if (invocationId !== undefined && typeof invocationId !== 'string') {
        throw new ProtocolError(`The invocation of '${target}' had a non-string "invocationId".`);
      }
      if (typeof invocationId === 'string' && invocationId.length > MAX_INVOCATION_ID_LENGTH) {
        throw new ProtocolError(`An invocation ID was longer than ${MAX_INVOCATION_ID_LENGTH} characters.`);
      }
      if (parsed.type === MessageType.StreamInvocation && invocationId === undefined) {
        throw new ProtocolError(`The stream invocation of '${target}' had no "invocationId".`);
      }
      if (streamIds !== undefined && !Array.isArray(streamIds)) {
        throw new ProtocolError(`The invocation of '${target}' had a non-array "streamIds".`);
      }
      return { type: parsed.type, invocationId, target, arguments: args, streamIds };
    }
    case MessageType.Ping:
      return { type: MessageType.Ping };
    case MessageType.Close:
      return { type: MessageType.Close, error: typeof parsed.error === 'string' ? parsed.error : undefined };
    case MessageType.CancelInvocation:
      return { type: MessageType.CancelInvocation };
    case MessageType.StreamItem:
    case MessageType.Completion:
    case MessageType.Ack:
    case MessageType.Sequence:
      return { type: parsed.type };
    default:
      throw new ProtocolError(`Unknown message type ${parsed.type}.`);
  }
}
