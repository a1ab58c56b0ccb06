// The selected agent's Installer and Auto Setup links (GET /cmd/download-link/{agentId}),
// loaded by itself for an agent not set up yet (PENDING: its install commands show at once,
// e.g. right after Create), else when the user asks (Installer, Auto Setup). The server keeps
// the agent's setup key, so loading again shows the same link; `renew` asks for a new key.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { AgentDownloadLink } from '../../../server/contract/agents';
import * as api from './api';

export function useSetupLink(agent: { ID: number; Configured?: boolean } | null) {
  const [link, setLink] = useState<{ agentId: number; link: AgentDownloadLink } | null>(null);
  const current = useRef<number | null>(null);
  current.current = agent?.ID ?? null;

  const load = useCallback(async (agentId: number, renew = false): Promise<AgentDownloadLink> => {
    const l = await api.downloadLink(agentId, renew);
    if (!l) throw new Error('The server sent no link.');
    if (current.current === agentId) setLink({ agentId, link: l });
    return l;
  }, []);

  const pending = agent !== null && agent.ID > 0 && agent.Configured === false;
  const id = agent?.ID ?? null;
  useEffect(() => {
    if (id !== null && pending) load(id).catch(() => undefined);
    // Set up meanwhile (or another agent): the link shown was spent, its commands no longer work.
    else setLink(null);
  }, [id, pending, load]);

  return { link: link && link.agentId === id ? link.link : null, load };
}
