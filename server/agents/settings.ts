// Settings of remote agents, from the environment (docs/agents.md).
//   HOPWATCH_REMOTE_AGENTS   1 (default) or 0: the "magneto" setting, remote agents on or off.
//   HOPWATCH_ENTITLED_TRACES how many traces remote agents may run at once (default 100).
// The URL agents reach this server at (HOPWATCH_PUBLIC_URL or Settings > General) is read by
// server/settings/public-url.ts.
export interface AgentSettings {
  enabled: boolean;
  entitledTraces: number;
}

export function agentSettings(env: NodeJS.ProcessEnv = process.env): AgentSettings {
  const entitled = Number.parseInt(env.HOPWATCH_ENTITLED_TRACES ?? '', 10);
  return {
    enabled: (env.HOPWATCH_REMOTE_AGENTS ?? '1') !== '0',
    entitledTraces: Number.isFinite(entitled) && entitled >= 0 ? entitled : 100,
  };
}
