// The choices of a new trace: the agents (useAgentList) for the Agent picker and newtarget's
// agentID, and the named configurations (GET /cmd/getsettingslist) for the Settings picker.
// A failure leaves the picker empty (logged, not reported).
import { useEffect, useState } from 'react';
import type { SettingsListItem } from '../../../server/contract/summaries';
import * as api from './api';
import { chosenAgent } from './logic/agentPicker';
import { useAgentList } from './useAgentList';

export function useAgentsAndConfigurations() {
  const agents = useAgentList();
  const [agentId, setAgentId] = useState<number | null>(null);
  const [settingsList, setSettingsList] = useState<SettingsListItem[]>([]);
  useEffect(() => {
    api.getSettingsList().then((list) => setSettingsList(list ?? []), (e) => console.warn('getsettingslist failed', e));
  }, []);
  return { agents, agent: chosenAgent(agents, agentId), chooseAgent: setAgentId, settingsList };
}
