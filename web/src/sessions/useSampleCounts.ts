// Spec 2: GetSampleCountForSession(sessionId, -1) per session after the list loads, shown
// "..." until it answers. The server's list already carries the count (counted at ingest),
// so only sessions whose count is not loaded (negative) are asked for; a failure is logged
// only (spec 2 section 8).
import { useEffect, useState } from 'react';
import { LocalMachineAgentId, type Session } from '../../../server/contract/sessions';
import { invoke } from '../hub/connection';

export function useSampleCounts(sessions: Session[]): Session[] {
  const [counts, setCounts] = useState<Map<number, number>>(new Map());
  useEffect(() => {
    let live = true;
    const missing = sessions.filter((s) => s.SampleCount < 0);
    for (const s of missing) {
      invoke('GetSampleCountForSession', s.SessionID, LocalMachineAgentId).then(
        (n) => live && setCounts((m) => new Map(m).set(s.SessionID, n)),
        (e) => console.warn(`GetSampleCountForSession ${s.SessionID} failed`, e),
      );
    }
    return () => {
      live = false;
    };
  }, [sessions]);
  if (!counts.size) return sessions;
  return sessions.map((s) => (s.SampleCount < 0 && counts.has(s.SessionID) ? { ...s, SampleCount: counts.get(s.SessionID)! } : s));
}
