// The agent link's state as a file in the agent's directory (link.json), written by the running
// agent when the link comes up or goes down, and read by `hopwatch-agent health`: the container
// health check and the Kubernetes readiness probe (docs/deploy.md). An agent keeps tracing and
// spooling while its server is away, so a down link is not a dead agent: health says how long
// the link has been down and why, and calls it unhealthy only after LinkDownGraceMs (a server
// restart or a reconnect's back-off, at most 10 s, stays healthy).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from './state.js';

export interface LinkStatus {
  /** 'up': connected and assigned its traces; 'down': connecting, reconnecting or refused. */
  state: 'up' | 'down';
  /** Since when (ms since the epoch). */
  since: number;
  /** Why it is down (the close code and reason, or the server's refusal). */
  detail?: string;
  /** The agent process that wrote it. */
  pid: number;
}

export const LinkDownGraceMs = 60_000;

const fileOf = (dir: string) => join(dir, 'link.json');

export function writeLinkStatus(dir: string, status: LinkStatus): void {
  writeFileAtomic(fileOf(dir), JSON.stringify(status), 0o644);
}

export function readLinkStatus(dir: string): LinkStatus | undefined {
  const p = fileOf(dir);
  if (!existsSync(p)) return undefined;
  try {
    return JSON.parse(readFileSync(p, 'utf8')) as LinkStatus;
  } catch {
    return undefined;
  }
}

/** Whether a process with this pid runs (signal 0 checks without sending anything). */
export function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The health verdict and the line `hopwatch-agent health` prints. */
export function linkHealth(status: LinkStatus | undefined, now: number, runs: (pid: number) => boolean = processRuns): { healthy: boolean; text: string } {
  if (!status) return { healthy: false, text: 'The agent has not started (no link state yet).' };
  if (!runs(status.pid)) return { healthy: false, text: `The agent is not running (process ${status.pid} is gone).` };
  const since = new Date(status.since).toISOString();
  if (status.state === 'up') return { healthy: true, text: `The agent link is up since ${since}.` };
  const down = Math.round((now - status.since) / 1000);
  const why = status.detail ? ` (${status.detail})` : '';
  const text = `The agent link is down since ${since}, ${down} s${why}; traces go on and their rounds are kept in the spool.`;
  return { healthy: now - status.since < LinkDownGraceMs, text };
}
