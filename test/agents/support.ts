// Helpers of the agent suites: the console's agent calls over REST, and the agent program
// (dist/agent/cli.js) as a child process, optionally inside a network namespace.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { HttpTransportType, HubConnectionBuilder, LogLevel } from '@microsoft/signalr';
import { spooledBatchCount } from '../../agent/spool.js';
import type { Agent, AgentDownloadLink } from '../../server/contract/agents.js';

const cliJs = resolve(import.meta.dirname, '../../dist/agent/cli.js');
/** Node flags the agent's launchers give (agent/bundle/hopwatch-agent, container/entrypoint.sh, cli.ts's #! line). */
export const agentNodeFlags = ['--max-semi-space-size=2', '--optimize-for-size'];

export async function cmd<T>(url: string, cookie: string, path: string): Promise<T> {
  const r = await fetch(url + path, { headers: { cookie } });
  const text = await r.text();
  if (r.status !== 200) throw new Error(`${path}: ${r.status} ${text}`);
  return JSON.parse(text) as T;
}

export async function createAgentWithLink(url: string, cookie: string, name: string): Promise<{ agent: Agent; link: AgentDownloadLink }> {
  const agent = await cmd<Agent>(url, cookie, `/cmd/createAgent?name=${encodeURIComponent(encodeURIComponent(name))}`);
  const link = await cmd<AgentDownloadLink>(url, cookie, `/cmd/download-link/${agent.ID}`);
  return { agent, link };
}

export async function agentList(url: string, cookie: string): Promise<Agent[]> {
  return cmd<Agent[]>(url, cookie, '/cmd/getagentlist');
}

export async function waitFor<T>(what: string, fn: () => Promise<T | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v !== undefined && v !== false) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export interface AgentProcess {
  dir: string;
  roundLog: string;
  output(): string;
  /** Batches still in the spool (not acknowledged). */
  spooled(): number;
  /** Lines of the round log: [traceId, time, hops, marker ('stop' or 'start' for a marker round)]. */
  rounds(): AgentRound[];
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  exited: Promise<number | null>;
  dispose(): Promise<void>;
}

export type AgentRound = [traceId: number, time: number, hops: number, marker: 'stop' | 'start' | undefined];

export function startAgent(args: string[], opts: { env?: Record<string, string>; netns?: string; dir?: string } = {}): AgentProcess {
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'hopwatch-agent-'));
  const roundLog = join(dir, 'rounds.log');
  const argv = opts.netns ? ['ip', 'netns', 'exec', opts.netns, process.execPath, ...agentNodeFlags, cliJs, ...args] : [process.execPath, ...agentNodeFlags, cliJs, ...args];
  const child: ChildProcess = spawn(argv[0], argv.slice(1), {
    env: { ...process.env, HOPWATCH_AGENT_DIR: dir, HOPWATCH_AGENT_ROUND_LOG: roundLog, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)));
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  return {
    dir,
    roundLog,
    output: () => out,
    spooled: () => spooledBatchCount(join(dir, 'spool')),
    rounds: () =>
      existsSync(roundLog)
        ? readFileSync(roundLog, 'utf8').trim().split('\n').filter(Boolean).map((l): AgentRound => {
            const [id, time, hops, marker] = l.split(' ');
            return [Number(id), Number(time), Number(hops), marker === 'stop' || marker === 'start' ? marker : undefined];
          })
        : [],
    stop,
    exited,
    dispose: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Waits until the agent measures nothing more and has nothing left to send (after its traces were stopped). */
export async function waitAgentIdle(agent: AgentProcess): Promise<void> {
  let last = -1;
  await waitFor('the agent idle', async () => {
    const n = agent.rounds().length;
    const idle = n === last && agent.spooled() === 0;
    last = n;
    if (!idle) await new Promise((r) => setTimeout(r, 1000));
    return idle;
  });
}

/**
 * What the server should hold of a trace's rounds (the agent's round log), per second from the
 * first round's second: the number of rounds measured in it (a marker round counts none), to
 * compare with DataPointBuckets of the first hop at 1 s (none lost, none doubled, none moved).
 */
export function roundsPerSecond(measured: AgentRound[]): { start: number; end: number; expected: Map<number, number> } {
  const start = Math.floor(measured[0][1] / 1000) * 1000;
  const end = Math.floor(measured[measured.length - 1][1] / 1000) * 1000 + 1000;
  const expected = new Map<number, number>();
  for (const [, time, , marker] of measured) {
    const second = Math.floor((time - start) / 1000);
    expected.set(second, (expected.get(second) ?? 0) + (marker ? 0 : 1));
  }
  return { start, end, expected };
}

/** One hub call on a connection of its own, as a console would make it (signed in by `cookie`). */
export async function hubCall<T>(url: string, cookie: string, method: string, ...args: unknown[]): Promise<T> {
  const c = new HubConnectionBuilder()
    .withUrl(`${url}/mainHub`, { transport: HttpTransportType.WebSockets, headers: { cookie } })
    .configureLogging(LogLevel.None)
    .build();
  await c.start();
  try {
    return (await c.invoke(method, ...args)) as T;
  } finally {
    await c.stop();
  }
}
