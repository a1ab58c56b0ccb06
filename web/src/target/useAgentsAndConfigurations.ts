// The choices of a new trace: the agents (hub GetAgents) for the Agent picker and newtarget's
// agentID, and the named configurations (GET /cmd/getsettingslist) for the Settings picker.
// Read once per window; a failure leaves the picker empty (logged, not reported).
import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { currentUserAtom } from '../state/user';
import type { AgentItem } from '../../../server/contract/agents';
import type { SettingsListItem } from '../../../server/contract/summaries';
import { invoke } from '../hub/connection';
import * as api from './api';
import { chosenAgent } from './logic/agentPicker';

export function useAgentsAndConfigurations() {
  const [agents, setAgents] = useState<AgentItem[]>([]);
  const [agentId, setAgentId] = useState<number | null>(null);
  const [settingsList, setSettingsList] = useState<SettingsListItem[]>([]);
  // A LiveShare visitor starts no traces: it has no choices to read (and may not read them).
  const visitor = !!useAtomValue(currentUserAtom)?.IsLiveshare;
  useEffect(() => {
    if (visitor) return;
    invoke('GetAgents').then((list) => setAgents(list ?? []), (e) => console.warn('GetAgents failed', e));
    api.getSettingsList().then((list) => setSettingsList(list ?? []), (e) => console.warn('getsettingslist failed', e));
  }, [visitor]);
  return { agents, agent: chosenAgent(agents, agentId), chooseAgent: setAgentId, settingsList };
}
