// The engine pane's rules (spec 2 sections 4, 5 and 9): packet size follows the packet type,
// TCP port presets and range, timeout in integer ms, UDP beginning and ending ports, the
// warning while a changed packet type is unsaved, and text input widths.
import type { PacketTypeInfo } from '../../../../server/contract/settings';

export const TcpPortPresets = [
  { port: 80, label: 'HTTP' },
  { port: 53, label: 'DNS' },
  { port: 21, label: 'FTP' },
  { port: 443, label: 'HTTPS' },
] as const;

/** Choosing a packet type sets the packet size: 40 if its name contains tcp, otherwise 56. */
export const packetSizeFor = (packetTypeName: string): number => (/tcp/i.test(packetTypeName) ? 40 : 56);

/** A port 1-65535 from free text, or null: a TCP port entry is ignored unless numeric. */
export function parsePort(text: string): number | null {
  const t = text.trim();
  if (!/^\d{1,5}$/.test(t)) return null;
  const n = Number(t);
  return n >= 1 && n <= 65535 ? n : null;
}

/** Timeout in ms: must parse as an integer (1-60000, the engine's range). */
export function parseTimeoutMs(text: string): number | null {
  const t = text.trim();
  if (!/^\d+$/.test(t)) return null;
  const n = Number(t);
  return n >= 1 && n <= 60000 ? n : null;
}

/** Problem with a UDP port range, or undefined. */
export function udpRangeProblem(begin: number, end: number): string | undefined {
  if (!Number.isInteger(begin) || begin < 1 || begin > 65535) return 'The beginning port must be 1-65535.';
  if (!Number.isInteger(end) || end < 1 || end > 65535) return 'The ending port must be 1-65535.';
  return end < begin ? 'The ending port must not be below the beginning port.' : undefined;
}

/** The editor's text inputs are MaxChars x 10 px wide. */
export const inputWidthPx = (maxChars: number | null | undefined): number | undefined => (maxChars ? maxChars * 10 : undefined);

/**
 * Whether the engine-type warning shows: the chosen type differs from the saved one and is not
 * ICMP, so its own fields (TCP port, UDP ports) appear only once the change is saved.
 */
export const engineTypeWarning = (chosen: string, saved: string): boolean => chosen !== saved && chosen !== 'ICMP';

/** Which engine fields the saved packet type has of its own. */
export function typeFields(savedType: string): string[] {
  if (savedType === 'TCP') return ['TcpPort'];
  if (savedType === 'UDP') return ['UdpBeginPort', 'UdpEndPort'];
  if (savedType === RemoteServerPacketType) return ['RemoteServerAddress', 'RemoteServerUserName', 'RemoteServerPassword'];
  return [];
}

/** The packet type run by another Hopwatch (ptTraceViaRemoteServer); its value is this name. */
export const RemoteServerPacketType = 'Remote server';
/** The fields a packet type has of its own, shown only once that type is saved. */
export const TypeSpecificFields = ['TcpPort', 'UdpBeginPort', 'UdpEndPort', 'RemoteServerAddress', 'RemoteServerUserName', 'RemoteServerPassword'];
/** Engine fields that do nothing when another Hopwatch runs the trace (its own configuration decides). */
export const fieldsUnusedBy = (savedType: string): string[] =>
  savedType === RemoteServerPacketType ? ['PacketSize', 'Timeout', 'InterHopDelay', 'NetworkInterface', 'AllowFragmentation', 'Dscp'] : [];

/** The packet type named by the value, or an error text for an engine type with no editor. */
export function packetTypeOf(types: readonly PacketTypeInfo[], value: string): PacketTypeInfo | string {
  return types.find((t) => t.Name === value) ?? `No editor for engine type: ${value}`;
}

/** Graph scale: the choice shown for a value (0 automatic, -2 follow the target, 100 fixed, anything else custom). */
export const DefaultCustomScaleMs = 250;
export function scaleChoice(value: number): 'auto' | 'follow' | 'fixed100' | 'custom' {
  if (value === 0) return 'auto';
  if (value === -2) return 'follow';
  if (value === 100) return 'fixed100';
  return 'custom';
}
