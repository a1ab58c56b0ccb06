// The choices of a new trace: the agents (useAgentList) for the Agent picker and newtarget's
// agentID, and the named configurations (GET /cmd/getsettingslist) for the Settings picker.
// A failure leaves the picker empty (logged, not reported). The picker shows the open trace's
// own agent until the user picks one, and a new target's default otherwise
// (logic/agentPicker pickerAgent: issue 40 items 2 and 8); a pick lasts while the window
// shows the same target.
import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { settingsVersionAtom } from '../hub/hubEvents';
import { appConfigAtom, currentUserAtom } from '../state/user';
import { DeploymentMode } from '../../../server/contract/account';
import type { SettingsListItem } from '../../../server/contract/summaries';
import * as api from './api';
import { pickerAgent } from './logic/agentPicker';
import { traceAgent } from './logic/traceAgent';
import { useAgentList } from './useAgentList';

/** `trace`: the open target's agent (its HubSentinelID, and the name the rows' Agent column gives it). */
export function useAgentsAndConfigurations(trace: { agentId: number; serverName?: string } | null = null, targetId?: string) {
  // A LiveShare visitor starts no traces: it has no choices to read (and may not read them).
  const visitor = !!useAtomValue(currentUserAtom)?.IsLiveshare;
  const agents = useAgentList(!visitor);
  const [agentId, setAgentId] = useState<number | null>(null);
  // Another target (or a new one): what the user picked for the last one does not carry over.
  useEffect(() => setAgentId(null), [targetId]);
  const hosted = useAtomValue(appConfigAtom).DeploymentMode === DeploymentMode.Cloud;
  const [settingsList, setSettingsList] = useState<SettingsListItem[]>([]);
  // Read again on SettingsChanged: a configuration made or renamed in Settings shows in the picker.
  const settingsVersion = useAtomValue(settingsVersionAtom);
  useEffect(() => {
    if (visitor) return;
    api.getSettingsList().then((list) => setSettingsList(list ?? []), (e) => console.warn('getsettingslist failed', e));
  }, [visitor, settingsVersion]);
  const traced = trace ? traceAgent(trace.agentId, agents, trace.serverName) : null;
  const agent = pickerAgent(agents, agentId, trace && traced ? { ID: trace.agentId, Name: traced.name, IsOnline: !traced.offline } : null, hosted);
  return { agents, agent, chooseAgent: setAgentId, settingsList };
}
