// A stored session as the Session entity of spec 2 section 3 (the sessions page's rows).
import {
  LocalMachineAgentId,
  LocalMachineAgentName,
  SessionStateText,
  type Session,
  type SessionState,
} from '../contract/sessions.js';
import type { ListedSession } from './repository.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** `agentName`: the agent's name as agents.repository's agentNames answers it. */
export function sessionDto(s: ListedSession, agentName?: string): Session {
  const state = s.state as SessionState;
  const local = s.sentinelId === LocalMachineAgentId;
  return {
    SessionID: s.id,
    StartTime: iso(s.startTime)!,
    EndTime: iso(s.endTime),
    TargetDescription: s.description,
    TargetIP: s.targetIp,
    TargetName: s.targetName,
    PersistenceMode: s.persistenceMode,
    AdHocLoadCycles: 0,
    // Counted at ingest (sessions_counted), so the list answers it at once.
    SampleCount: s.sampleCount,
    OriginalTarget: s.originalTarget,
    State: state,
    StateString: SessionStateText[state] ?? SessionStateText[4],
    DynamicDnsMode: s.dynamicDnsMode,
    SentinelID: local ? null : s.sentinelId,
    HubSentinelID: null,
    HubSessionID: null,
    CollectorMode: s.collectorMode,
    MagnetoID: null,
    CloudConnectAccountId: null,
    AgentName: local ? LocalMachineAgentName : (agentName ?? `Unknown Agent (${s.sentinelId}/)`),
    Imported: s.imported,
  };
}
