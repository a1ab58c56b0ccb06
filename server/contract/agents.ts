// Agents as the console sees them (spec 1 sections 3, 4 and 7; spec 3 section 7.5).

/** An agent as the hub's GetAgents answers it: the built-in Local Machine, or a remote one. */
export interface AgentItem {
  ID: number;
  Name: string;
  UniqueID: string;
  IsOnline: boolean;
}

/** How the agent program runs on its machine (spec 1 "Agent status"). */
export const AgentMode = { UNKNOWN: 0, SERVICE: 1, APP: 2 } as const;
export type AgentMode = (typeof AgentMode)[keyof typeof AgentMode];
export const AgentModeText: Record<AgentMode, string> = { 0: 'UNKNOWN', 1: 'SERVICE', 2: 'APP' };

/** Spec 1: Platform 1 Windows, 2 Mac, else unknown (Linux agents report 3). */
export const AgentPlatform = { Unknown: 0, Windows: 1, Mac: 2, Linux: 3 } as const;

/** PENDING (never configured), ONLINE, OFFLINE (configured, not connected). */
export type AgentStatus = 'PENDING' | 'ONLINE' | 'OFFLINE';

/** The Agent entity of spec 1 section 3, plus Mode. SecurityKey is never sent (stored hashed). */
export interface Agent extends AgentItem {
  OpenSessions: number;
  TotalSessions: number;
  SecurityKey: string;
  Configured: boolean;
  LastMessageUnixTime: number | null;
  MachineID: string;
  Platform: number;
  Version: string;
  TargetVersion: string;
  ServiceRunning: boolean;
  MachineName: string;
  ClientDetails: string;
  Mode: AgentMode;
  /** The operating system by name and release ("Debian GNU/Linux 12 (bookworm)"); the Local Machine's (issue 41 item 4). */
  OsDescription?: string;
}

/** GET /cmd/cloudconnect-entitlement and the hub's GetCloudConnectEntitlement. */
export interface Entitlement {
  ActiveTraces: number;
  EntitledTraces: number;
  /**
   * Active traces on the Local Machine that ActiveTraces leaves out (self-hosted, and the
   * hosted provider's accounts: server/accounts/local-machine.ts); 0 where they count. The
   * Agents overview says them, so its figures agree with the table (issue 41 item 4).
   */
  UncountedLocalMachineTraces: number;
}

/**
 * The Installer and Auto Setup links of an agent (download-link/{agentId}, AgentDownloadLink).
 * SetupLink carries the agent's setup key, the same one on every call until the key is used
 * (a new one is made then) or `renew` asks for a new one (issue 40 item 3); an enrolled agent
 * keeps its own credential.
 */
export interface AgentDownloadLink {
  DownloadUrl: string;
  SetupLink: string;
  /** The server address both links name. */
  Server: string;
  /** Where Server comes from: the public URL (HOPWATCH_PUBLIC_URL or Settings > General), the browser's address, or this host's name (the hub). */
  ServerSource: 'PublicUrl' | 'Browser' | 'HostName';
  /** Why an agent on another machine cannot reach Server ('' when nothing says so: server/agents/reachable-address.ts). */
  Warning: string;
  /** This call replaced a setup key that was not used yet: the link copied before no longer works. */
  Replaced: boolean;
}

/** The refusal of a setup with a link whose key a newer one replaced; the console says the same when it replaces one. */
/**
 * The CPUs agent bundles are built for (issue 46; docs/agents.md "Supported platforms"), named as
 * Node's process.arch and the bundles' files: x64 (`uname -m` x86_64) and arm64 (aarch64).
 */
export const AgentBundleArchs = ['x64', 'arm64'] as const;
export type AgentBundleArch = (typeof AgentBundleArchs)[number];

/** Where the agent bundle for `arch` is served (agent/bundle/build.sh builds it). */
export const agentBundlePath = (arch: AgentBundleArch): string => `/downloads/hopwatch-agent-linux-${arch}.tar.gz`;

/** The self-served installer: picks the bundle by `uname -m`, downloads it from this server and installs it. */
export const AgentInstallerScriptPath = '/downloads/hopwatch-agent-install.sh';

export const SetupLinkReplacedText = 'This Auto Setup link was replaced by a newer one and no longer works: copy the current link from the console (Agents, the agent, Auto Setup).';
/** The refusal of a setup with a key that was used already or never was this agent's. */
export const SetupKeySpentText = 'Unknown agent or spent setup key: copy a new Auto Setup link from the console.';

/** The URL scheme of Auto Setup links: hopwatch://setup?mode=sentinel&id=..&key=..&server=.. */
export const AgentSetupScheme = 'hopwatch';

export const AgentNameMaxLength = 100;

export function agentStatus(a: Pick<Agent, 'IsOnline' | 'Configured'>): AgentStatus {
  if (a.IsOnline) return 'ONLINE';
  return a.Configured ? 'OFFLINE' : 'PENDING';
}

/** A target an agent traces (the detail panel's TARGETS list): GET /cmd/agentTargets?agentId. */
export interface AgentTarget {
  ID: number;
  IPAddress: string;
  Name: string;
  /** The newest sample's time (ms), null before the first. */
  LatestSample: number | null;
  Paused: boolean;
}

/**
 * Spec 1 section 8, "Capacity info": all entitled remote traces run. Also the Error text of
 * newtarget's 409 when a start would go past the entitlement (HOPWATCH_ENTITLED_TRACES).
 */
export const capacityFullText = (entitled: number, selfHosted: boolean): string =>
  `Looks like you're running all ${entitled} of your ${selfHosted ? 'CloudConnect' : 'Cloud'} traces. You can manage your traces in the ${selfHosted ? 'CloudConnect' : 'Agent'} tab`;

/** Spec 1 section 8: one entitled remote trace is left. */
export const capacityOneLeftText = (active: number, entitled: number): string =>
  `You're running ${active} of ${entitled} remote traces. You can manage your traces or upgrade your capacity in the Agent tab`;
