// The choices of a new trace: the agents (hub GetAgents) for the Agent picker and newtarget's
// agentID, and the named configurations (GET /cmd/getsettingslist) for the Settings picker.
// Read once per window; a failure leaves the picker empty (logged, not reported).
import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { settingsVersionAtom } from '../hub/hubEvents';
import type { AgentItem } from '../../../server/contract/agents';
import type { SettingsListItem } from '../../../server/contract/summaries';
import { invoke } from '../hub/connection';
import * as api from './api';
import { chosenAgent } from './logic/agentPicker';

export function useAgentsAndConfigurations() {
  const [agents, setAgents] = useState<AgentItem[]>([]);
  const [agentId, setAgentId] = useState<number | null>(null);
  const [settingsList, setSettingsList] = useState<SettingsListItem[]>([]);
  useEffect(() => {
    invoke('GetAgents').then((list) => setAgents(list ?? []), (e) => console.warn('GetAgents failed', e));
  }, []);
  // Read again on SettingsChanged: a configuration made or renamed in Settings shows in the picker.
  const settingsVersion = useAtomValue(settingsVersionAtom);
  useEffect(() => {
    api.getSettingsList().then((list) => setSettingsList(list ?? []), (e) => console.warn('getsettingslist failed', e));
  }, [settingsVersion]);
  return { agents, agent: chosenAgent(agents, agentId), chooseAgent: setAgentId, settingsList };
}
