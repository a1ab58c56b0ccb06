// The engine settings of a named configuration (spec 2 settings, Engine pane), stored as
// JSON in configurations.engine_json and handed to the engine for each trace.
import type { TraceOptions } from '../../engine/index.js';
import type { Queryable } from '../store/db.js';

export type EngineSettings = Omit<TraceOptions, 'target' | 'intervalSeconds' | 'finalHopOnly' | 'reverseLookup' | 'resolveName'>;

const keys = [
  'packetType', 'tcpPort', 'udpBeginPort', 'udpEndPort', 'packetSize', 'timeoutMs', 'interHopDelayMs',
  'firstTtl', 'maxTtl', 'allowFragmentation', 'sourceInterface', 'family', 'reverseDns', 'dscp', 'hopOwners',
] as const;

/** Known keys only; the engine validates the values when the trace starts. */
export function parseEngineSettings(json: string): EngineSettings {
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(json || '{}') as Record<string, unknown>;
  } catch {
    return {};
  }
  const out: Record<string, unknown> = {};
  for (const k of keys) if (raw[k] !== undefined && raw[k] !== null) out[k] = raw[k];
  return out as EngineSettings;
}

export async function engineSettingsOf(q: Queryable, configId: number): Promise<EngineSettings> {
  return (await engineOptionsOf(q, configId)).engine;
}

/** A configuration's engine settings and its "Final hop only" (which the target's own toggle adds to). */
export async function engineOptionsOf(q: Queryable, configId: number): Promise<{ engine: EngineSettings; finalHopOnly: boolean; stored: Record<string, unknown> }> {
  const row = await q.one<{ engine: string }>('SELECT engine_json AS engine FROM configurations WHERE id = $1', [configId]);
  const json = row?.engine ?? '{}';
  let stored: Record<string, unknown> = {};
  try {
    const v = JSON.parse(json) as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) stored = v as Record<string, unknown>;
  } catch {
    // parseEngineSettings answers {} for it too
  }
  // stored: everything engine_json holds (the remote-server access too, server/remote-server/settings.ts).
  return { engine: parseEngineSettings(json), finalHopOnly: stored.finalHopOnly === true, stored };
}
