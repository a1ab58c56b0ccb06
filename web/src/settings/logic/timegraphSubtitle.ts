// The time graph header's configuration and agent names (spec 2 "Time graph"), left out when
// Settings > General says to always hide them.
export interface TimegraphOptions {
  hideSettingName: boolean;
  hideAgentName: boolean;
}

export const ShowBoth: TimegraphOptions = { hideSettingName: false, hideAgentName: false };

export function timegraphSubtitle(configName: string, agentName: string, o: TimegraphOptions): string {
  return [o.hideSettingName ? '' : configName, o.hideAgentName ? '' : agentName].filter(Boolean).join(' · ');
}
