// The choices of a new trace: the agents (useAgentList) for the Agent picker and newtarget's
// agentID, and the named configurations (GET /cmd/getsettingslist) for the Settings picker.
// A failure leaves the picker empty (logged, not reported).
import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { settingsVersionAtom } from '../hub/hubEvents';
import { currentUserAtom } from '../state/user';
import type { SettingsListItem } from '../../../server/contract/summaries';
import * as api from './api';
import { chosenAgent } from './logic/agentPicker';
import { useAgentList } from './useAgentList';

export function useAgentsAndConfigurations() {
  // A LiveShare visitor starts no traces: it has no choices to read (and may not read them).
  const visitor = !!useAtomValue(currentUserAtom)?.IsLiveshare;
  const agents = useAgentList(!visitor);
  const [agentId, setAgentId] = useState<number | null>(null);
  const [settingsList, setSettingsList] = useState<SettingsListItem[]>([]);
  // Read again on SettingsChanged: a configuration made or renamed in Settings shows in the picker.
  const settingsVersion = useAtomValue(settingsVersionAtom);
  useEffect(() => {
    if (visitor) return;
    api.getSettingsList().then((list) => setSettingsList(list ?? []), (e) => console.warn('getsettingslist failed', e));
  }, [visitor, settingsVersion]);
  return { agents, agent: chosenAgent(agents, agentId), chooseAgent: setAgentId, settingsList };
}
