// The packet type the target window's header names (issue 41 item 5): from the target's
// configuration as it is now (engine_json), so a switch to TCP shows on the next read.
import type { EngineSettings } from '../targets/engine-settings.js';

/** The engine's default TCP port (engine/types.ts TraceOptions.tcpPort). */
const DefaultTcpPort = 80;

/** "ICMP" (the default), "UDP", or "TCP port 443". */
export function packetTypeText(engine: Pick<EngineSettings, 'packetType' | 'tcpPort'>): string {
  if (engine.packetType === 'TCP') return `TCP port ${engine.tcpPort ?? DefaultTcpPort}`;
  return engine.packetType === 'UDP' ? 'UDP' : 'ICMP';
}
