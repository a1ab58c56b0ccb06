// The Agents page's rules (spec 1 "Agents page", "Agent status"): grid texts, default order,
// filter, the overview's capacity figures, and the Auto Setup and toast texts.
import { agentStatus, AgentModeText, capacityFullText, capacityOneLeftText, SetupLinkReplacedText, type Agent, type AgentItem, type Entitlement } from '../../../../server/contract/agents';

export type AgentRowSource = AgentItem & Partial<Agent>;

export interface AgentRow {
  id: number;
  name: string;
  targets: number;
  machineName: string;
  version: string;
  lastConnected: string;
  status: 'PENDING' | 'ONLINE' | 'OFFLINE';
  mode: string;
  os: string;
}

/** Version with the build segment dropped ("1.2.3.4" -> "1.2.3"); a three-part version (the server's, on the Local Machine) as it is. */
export function shortVersion(v: string | undefined): string {
  if (!v) return '';
  const parts = v.split('.');
  return parts.length > 3 ? parts.slice(0, 3).join('.') : v;
}

/** The platform's name (Linux agents and the Local Machine on Linux report 3), with the OS description when known. */
export function osText(platform: number | undefined, description?: string): string {
  const name = platform === 1 ? 'WINDOWS' : platform === 2 ? 'MAC' : platform === 3 ? 'LINUX' : 'UNKNOWN';
  return description ? `${name} (${description})` : name;
}

export function toRow(a: AgentRowSource, formatTime: (ms: number) => string = (ms) => new Date(ms).toLocaleString()): AgentRow {
  const configured = a.Configured ?? a.ID < 0;
  return {
    id: a.ID,
    name: a.Name,
    targets: a.TotalSessions ?? 0,
    machineName: a.MachineName ?? '',
    version: shortVersion(a.Version),
    lastConnected: a.LastMessageUnixTime ? formatTime(a.LastMessageUnixTime * 1000) : '',
    status: agentStatus({ IsOnline: a.IsOnline, Configured: configured }),
    mode: a.ID < 0 ? 'SERVICE' : AgentModeText[(a.Mode ?? 0) as 0 | 1 | 2] ?? 'UNKNOWN',
    os: osText(a.Platform, a.OsDescription),
  };
}

export type SortKey = keyof AgentRow;

/** Default order: online first, then by name. A chosen column sorts by itself. */
export function sortRows(rows: AgentRow[], sort?: { key: SortKey; descending: boolean }): AgentRow[] {
  const out = [...rows];
  if (!sort) {
    return out.sort((a, b) => Number(b.status === 'ONLINE') - Number(a.status === 'ONLINE') || a.name.localeCompare(b.name));
  }
  const dir = sort.descending ? -1 : 1;
  return out.sort((a, b) => {
    const x = a[sort.key];
    const y = b[sort.key];
    return dir * (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y)));
  });
}

/** Case-insensitive substring match on any shown text. */
export function filterRows(rows: AgentRow[], filter: string): AgentRow[] {
  const f = filter.trim().toLowerCase();
  if (!f) return rows;
  return rows.filter((r) => [r.name, r.machineName, r.version, r.status, r.mode, r.os].some((t) => t.toLowerCase().includes(f)));
}

export interface Overview {
  activeTargets: number;
  entitled: number;
  tracePercent: number;
  /** Active Local Machine targets that the entitlement leaves out (said beside it). */
  uncountedLocalTargets: number;
  online: number;
  offline: number;
  pending: number;
  onlinePercent: number;
}

/**
 * The Agents Overview cards. Agent counts are over the rows the table shows, the Local
 * Machine included where it is listed (it is online); Active Targets are the counted ones
 * (server/accounts/local-machine.ts), and the Local Machine's uncounted ones are said beside
 * them, so the cards never contradict the table (issue 41 item 4).
 */
export function overview(agents: AgentRowSource[], e: Entitlement | null): Overview {
  const rows = agents.map((a) => toRow(a));
  const online = rows.filter((r) => r.status === 'ONLINE').length;
  const pending = rows.filter((r) => r.status === 'PENDING').length;
  const active = e?.ActiveTraces ?? 0;
  const entitled = e?.EntitledTraces ?? 0;
  return {
    activeTargets: active,
    entitled,
    tracePercent: entitled > 0 ? Math.min(100, Math.round((active / entitled) * 100)) : 0,
    uncountedLocalTargets: e?.UncountedLocalMachineTraces ?? 0,
    online,
    offline: rows.length - online - pending,
    pending,
    onlinePercent: rows.length ? Math.round((online / rows.length) * 100) : 0,
  };
}

/** TOTAL TRACE CAPACITY's line: the counted targets, and the Local Machine's uncounted ones when there are any. */
export function overviewTargetsText(o: Overview): string {
  if (!o.uncountedLocalTargets) return `${o.activeTargets} of ${o.entitled} Active Targets`;
  return `${o.activeTargets} of ${o.entitled} Active Targets on agents; ${o.uncountedLocalTargets} on the Local Machine (not counted)`;
}

/** Spec 1 section 8: the capacity toasts after starting a remote trace (undefined: none). */
export function capacityToast(e: Pick<Entitlement, 'ActiveTraces' | 'EntitledTraces'>, selfHosted: boolean): string | undefined {
  if (e.EntitledTraces > 0 && e.ActiveTraces >= e.EntitledTraces) return capacityFullText(e.EntitledTraces, selfHosted);
  if (e.EntitledTraces > 1 && e.ActiveTraces === e.EntitledTraces - 1) return capacityOneLeftText(e.ActiveTraces, e.EntitledTraces);
  return undefined;
}

export const Texts = {
  // Not spec 1's "Paste in browser on agent machine": a headless Linux agent has no browser
  // (issue 40 item 5); the link goes to install.sh or hopwatch-agent setup.
  autoSetupCopied: 'Auto Setup link copied to clipboard. On the agent machine give it to install.sh or hopwatch-agent setup: the commands are under DEPLOY.',
  created: (name: string) => `Successfully created agent: ${name}. Install it with the commands under DEPLOY.`,
  setupLinkRenewed: (replaced: boolean) =>
    replaced ? `New Auto Setup link copied to clipboard. The link copied before no longer works; a setup with it is told: ${SetupLinkReplacedText}` : 'New Auto Setup link copied to clipboard.',
  commandsCopied: 'Commands copied to clipboard.',
  createFailed: 'Error creating agent: ',
  deleted: 'Successfully deleted agent',
  deleteFailed: 'Error deleting agent: ',
  reconnected: 'Successfully forced reconnect of agent',
  reconnectFailed: 'Error forcing reconnect of agent: ',
  renamed: 'Successfully updated agent name',
  renameFailed: 'Error updating agent name: ',
  downloadFailed: 'Error getting agent download',
} as const;
