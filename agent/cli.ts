#!/usr/bin/env -S node --max-semi-space-size=2 --optimize-for-size
// hopwatch-agent: the remote collector (docs/agents.md).
//   hopwatch-agent setup '<hopwatch://setup?...>'  enrol with the server, then run (Mode APP)
//   hopwatch-agent setup --no-run '<link>'         enrol only (the installer's service runs it)
//   hopwatch-agent setup --ca FILE '<link>'        trust FILE's CA for an https server (docs/deploy.md)
//   hopwatch-agent run [--service]                 run with the stored credentials
//   hopwatch-agent health                          exit 0 while the running agent's link is up (or down < 60 s)
// State lives in HOPWATCH_AGENT_DIR (default /var/lib/hopwatch-agent). Keys are never printed.
// The #! line caps V8's young generation as the bundle's launcher does (docs/agents.md, "Memory").
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { parseSetupLink, type SetupLink } from './setup-link.js';
import { AgentEnrolPath } from './protocol.js';
import { AgentState, agentDir } from './state.js';
import { AgentModeCode, AgentProgram } from './program.js';
import { agentEngine } from './engine-choice.js';
import { postJson, readCaFile, trustedCa } from './trust.js';
import { linkHealth, readLinkStatus } from './link-status.js';

const usage = `Usage:
  hopwatch-agent setup [--no-run] [--reuse] [--ca FILE] '<Auto Setup link>'
  hopwatch-agent run [--service]
  hopwatch-agent health      (exit 0 while the running agent's link is up, or down for less than a minute)
--ca FILE: trust the CA certificate in FILE (PEM) for an https server (kept in the agent's state).
--reuse: when already set up for this link's agent and server, keep the stored credential (restarts).
Environment: HOPWATCH_AGENT_DIR (state, default /var/lib/hopwatch-agent), HOPWATCH_AGENT_CA (a CA file,\n  overrides the kept one), HOPWATCH_ENGINE=simulated (tests), HOPWATCH_AGENT_ROUND_LOG (a file that gets one line per round).`;

function machineId(): string {
  try {
    const id = readFileSync('/etc/machine-id', 'utf8').trim();
    if (/^[0-9a-f]{32}$/.test(id)) return id;
  } catch {
    /* no machine id file */
  }
  return randomUUID();
}

function log(msg: string): void {
  console.log(`${new Date().toISOString()} ${msg}`);
}

async function setup(link: string, caFile: string | undefined, reuse: boolean): Promise<void> {
  const l = parseSetupLink(link);
  // A state directory this setup makes is removed again if the first contact fails (issue 40
  // item 4): a failed setup leaves nothing behind. One that was there (an agent set up before) stays.
  const made = !existsSync(agentDir());
  const state = new AgentState(agentDir());
  try {
    await enrol(l, state, caFile, reuse);
  } catch (err) {
    if (made) rmSync(state.dir, { recursive: true, force: true });
    throw err;
  }
}

async function enrol(l: SetupLink, state: AgentState, caFile: string | undefined, reuse: boolean): Promise<void> {
  // --reuse (the container's entry point): the same link again after a restart. Its key was
  // spent by the first setup; the credential stored then is this agent's.
  const kept = state.readCredentials();
  if (reuse && kept && kept.agentId === l.id && kept.server === l.server) {
    if (caFile) state.writeCa(readCaFile(caFile));
    log(`already set up as agent ${l.id} of ${l.server}; using the stored credential`);
    return;
  }
  const ca = caFile ? readCaFile(caFile) : process.env.HOPWATCH_AGENT_CA ? readCaFile(process.env.HOPWATCH_AGENT_CA) : undefined;
  const res = await postJson(l.server + AgentEnrolPath, { AgentId: l.id, Key: l.key }, ca).catch((err: Error) => {
    // The usual cause at a branch office: a link naming the server's own view of itself (issue 40 item 4).
    throw new Error(
      `The server ${l.server} could not be reached: ${err.message}. If agents reach the server at another address, set it as the public URL in the console (Settings > General) and copy the link again.`,
    );
  });
  const body = res.body as { Credential?: string; Error?: string };
  if (res.status !== 200 || !body.Credential) throw new Error(`The server refused the setup (${res.status}): ${body.Error ?? 'no answer'}`);
  const previous = state.readCredentials();
  // A different agent (or server) than before: its traces and spool are not this one's.
  if (previous && (previous.agentId !== l.id || previous.server !== l.server)) state.removeAll();
  state.writeCredentials({ agentId: l.id, server: l.server, credential: body.Credential, machineId: previous?.machineId ?? machineId() });
  // Kept for `run` and the service (a copy: the given file may go away).
  if (caFile) state.writeCa(ca);
  log(`set up as agent ${l.id} of ${l.server}; state in ${state.dir}${caFile ? `; trusting the CA in ${caFile}` : ''}`);
}

async function run(mode: number): Promise<void> {
  const state = new AgentState(agentDir());
  const creds = state.readCredentials();
  if (!creds) throw new Error(`This agent is not set up (no credentials in ${state.dir}): run hopwatch-agent setup '<Auto Setup link>' first.`);
  const program = new AgentProgram(creds, {
    state,
    ca: trustedCa(state),
    engine: agentEngine(),
    mode,
    log,
    roundLog: process.env.HOPWATCH_AGENT_ROUND_LOG || undefined,
    onUninstall: () => {
      log('uninstalled');
      // An installed copy: its uninstall script removes the service and files too.
      const script = process.env.HOPWATCH_AGENT_UNINSTALL;
      void program
        .stop()
        .catch(() => undefined)
        .then(() => (script ? runUninstallScript(script) : undefined))
        .finally(() => process.exit(0));
    },
  });
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping`);
    void program.stop().finally(() => process.exit(0));
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  log(`agent ${creds.agentId} starting (mode ${mode === AgentModeCode.SERVICE ? 'SERVICE' : 'APP'})`);
  await program.start();
}

/**
 * Runs the bundle's uninstall script and waits for it. Waiting matters under systemd: the
 * script hands itself over to a transient unit, and this process exiting first would make
 * systemd stop the service's cgroup, the script with it, before the hand-over.
 */
function runUninstallScript(script: string): Promise<void> {
  return new Promise((done) => {
    const child = spawn(script, [], { stdio: ['ignore', 'inherit', 'inherit'] });
    child.once('error', (err) => {
      log(`the uninstall script ${script} could not be started: ${err.message}`);
      done();
    });
    child.once('exit', (code, signal) => {
      if (code !== 0) log(`the uninstall script ${script} ended with ${signal ?? `exit code ${code}`}`);
      done();
    });
  });
}

/** Splits flags (`--name` or `--name=value`; `--ca` also takes the next word) from arguments. */
function parseArgs(rest: string[]): { flags: Map<string, string>; args: string[] } {
  const flags = new Map<string, string>();
  const args: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    if (!a.startsWith('--')) args.push(a);
    else if (a.includes('=')) flags.set(a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1));
    else if (a === '--ca') flags.set(a, rest[++i] ?? '');
    else flags.set(a, '');
  }
  return { flags, args };
}

async function main(argv: string[]): Promise<void> {
  const [cmd, ...rest] = argv;
  const { flags, args } = parseArgs(rest);
  if (flags.has('--ca') && !flags.get('--ca')) throw new Error('--ca needs a file (the PEM certificate of the CA that signed the server certificate)');
  if (cmd === 'setup' && args.length === 1) {
    await setup(args[0], flags.get('--ca'), flags.has('--reuse'));
    if (!flags.has('--no-run')) await run(AgentModeCode.APP);
    return;
  }
  if (cmd === 'health' && args.length === 0) {
    const verdict = linkHealth(readLinkStatus(agentDir()), Date.now());
    console.log(verdict.text);
    process.exit(verdict.healthy ? 0 : 1);
  }
  if (cmd === 'run' && args.length === 0) return run(flags.has('--service') ? AgentModeCode.SERVICE : AgentModeCode.APP);
  console.error(usage);
  process.exit(2);
}

main(process.argv.slice(2)).catch((err: Error) => {
  console.error(`hopwatch-agent: ${err.message}`);
  process.exit(1);
});
