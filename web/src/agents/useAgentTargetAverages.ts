// The Avg. column of the TARGETS list: each open target's final-hop average over the last
// 10 minutes (TraceGraphRows, listType Agent: the same figure a summary grid shows by default),
// read again with the agent list (its 15 s poll and CloudConnectAccountUpdated).
import { useEffect, useState } from 'react';
import { parseTargetId } from '../../../server/contract/targets';
import { agentTargetRows } from './api';

export function useAgentTargetAverages(agentId: number | null, version: unknown): Map<number, string> {
  const [averages, setAverages] = useState<Map<number, string>>(new Map());
  useEffect(() => {
    if (agentId === null) return setAverages(new Map());
    const abort = new AbortController();
    agentTargetRows(agentId, abort.signal).then(
      (result) => {
        const next = new Map<number, string>();
        for (const row of result?.Rows ?? []) {
          const id = parseTargetId(row.UniqueID)?.sessionId;
          if (id !== undefined) next.set(id, row.Columns.Avg ?? '');
        }
        setAverages(next);
      },
      (e) => abort.signal.aborted || console.warn('TraceGraphRows (Agent) failed', e),
    );
    return () => abort.abort();
  }, [agentId, version]);
  return averages;
}
