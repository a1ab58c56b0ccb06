// Issue 46 item 3: the linux-arm64 agent, as a Raspberry Pi user gets it, proven on this x64
// machine under qemu-user-static (test/support/qemu-arm64.ts). In a branch network (netns
// hw46-r1, three routers, 30% of the probes arriving at router 3 dropped) the Agents page's
// install lines (web/src/agents/logic/installCommands.ts) are run with `uname -m` saying aarch64:
// the server's installer picks the arm64 bundle, installs it (under a scratch root: no systemd
// here) and sets it up with its Auto Setup link; it runs as its unit does. An x64 agent installed
// by the same lines traces the same path in the same minutes: both see no loss at hop 1, and the
// same loss at hops 2 and 3 (within the sampling error of two binomial counts). The server is
// stopped and started again while the arm64 agent spools: every round it measured is stored
// once, at its second. Delete And Uninstall removes it. Prints the bundle sizes and the arm64 agent's CPU per
// 1,000 probes (emulated: not a performance figure). As root (raw sockets, namespaces).
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, closeSync, existsSync, openSync, readSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { asRoot } from '../netns/rounds.js';
import { buildTopology, type Topology } from '../netns/topology.js';
import type { Scenario } from '../netns/scenario.js';
import type { DataPointBuckets } from '../../server/contract/data.js';
import { AgentInstallerScriptPath, type AgentDownloadLink } from '../../server/contract/agents.js';
import { agentList, cmd, createAgentWithLink, waitFor, hubCall, type AgentProcess, type AgentRound } from './support.js';
import { spooledBatchCount } from '../../agent/spool.js';
import { aarch64Prefix, arm64EmulationMissing, emulateArm64, qemuAarch64, qemuEnv, type Arm64Emulation } from '../support/qemu-arm64.js';

const repo = resolve(import.meta.dirname, '../..');
const tarball = (arch: string) => join(repo, `dist/agent-bundle/hopwatch-agent-linux-${arch}.tar.gz`);
const scenario: Scenario = { id: 46, routers: 3, loss: [{ router: 3, percent: 30 }] };
const branch = `hw${scenario.id}-r1`;
/** Rounds every 0.25 s: about 480 per agent in the two minutes compared. */
const intervalSeconds = 0.25;
const compareMs = 120_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));


/** CPU time (user + system) of process `pid` so far, in ms. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
}

/** e_machine of an ELF file (little-endian): 0xb7 is AArch64, 0x3e x86-64. */
function elfMachine(path: string): number {
  const head = Buffer.alloc(20);
  const fd = openSync(path, 'r');
  readSync(fd, head, 0, 20, 0);
  closeSync(fd);
  if (head.toString('latin1', 0, 4) !== '\x7fELF') throw new Error(`${path} is not an ELF file`);
  return head.readUInt16LE(18);
}
const AArch64 = 0xb7;

interface Installed {
  arch: 'x64' | 'arm64';
  root: string;
  process: AgentProcess & { pid: number };
}

describe.skipIf(!asRoot)('the linux-arm64 agent under qemu (Raspberry Pi, 64-bit OS)', () => {
  let topo: Topology;
  let hw: Appliance;
  let serverUrl: string;
  let work: string;
  let emulation: Arm64Emulation | undefined;
  const agents: Installed[] = [];

  beforeAll(async () => {
    const missing = arm64EmulationMissing();
    if (missing) throw new Error(missing);
    for (const arch of ['x64', 'arm64']) {
      if (!existsSync(tarball(arch))) throw new Error(`${tarball(arch)} is not built (npm run build:agent-bundle; arm64 needs gcc-aarch64-linux-gnu)`);
    }
    emulation = emulateArm64();
    console.log(`[arm64] emulation: ${emulation.mode}${emulation.reason ? ` (${emulation.reason})` : ''}`);
    const x64 = statSync(tarball('x64')).size;
    const arm64 = statSync(tarball('arm64')).size;
    console.log(`[arm64] bundle sizes: linux-x64 ${(x64 / 1e6).toFixed(1)} MB, linux-arm64 ${(arm64 / 1e6).toFixed(1)} MB (${((arm64 / x64 - 1) * 100).toFixed(1)}%)`);
    topo = buildTopology(scenario);
    hw = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: 'pw', HOPWATCH_HOST: '0.0.0.0' } });
    serverUrl = `http://${topo.hostAddress.v4}:${hw.port}`;
    work = mkdtempSync(join(tmpdir(), 'hopwatch-arm64-'));
  }, 120_000);

  afterAll(async () => {
    for (const a of agents) await a.process.stop();
    await hw?.dispose();
    topo?.destroy();
    emulation?.release();
    if (work) rmSync(work, { recursive: true, force: true });
  }, 60_000);

  /** The Agents page's install lines (web/src/agents/logic/installCommands.ts; its unit test holds them to these). */
  const pageLines = (l: AgentDownloadLink) => [`curl -fLO ${l.Server}${AgentInstallerScriptPath}`, `sudo sh hopwatch-agent-install.sh '${l.SetupLink}'`].join('\n');

  /**
   * Runs the Agents page's install lines in the branch namespace (root: no sudo), with `uname -m`
   * answering `machine`; under HOPWATCH_INSTALL_ROOT (no systemd, no /opt of this host).
   */
  function installByThePage(lines: string, machine: string, root: string): string {
    const dir = join(work, `download-${machine}`);
    const bin = join(work, `uname-${machine}`);
    mkdirSync(dir, { recursive: true });
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'uname'), `#!/bin/sh\nif [ "$1" = -m ]; then echo ${machine}; else exec /bin/uname "$@"; fi\n`);
    chmodSync(join(bin, 'uname'), 0o755);
    const script = lines.split('\n').map((l) => l.replace(/^sudo /, '')).join(' && ');
    return execFileSync('ip', ['netns', 'exec', branch, 'sh', '-c', script], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, ...qemuEnv, PATH: `${bin}:${process.env.PATH}`, HOPWATCH_INSTALL_ROOT: root },
      timeout: 300_000,
    });
  }

  /**
   * Where the kernel cannot run arm64 programs (explicit mode): the arm64 bundle downloaded and
   * unpacked by hand, its bin/node run through qemu-aarch64-static by a wrapper, then install.sh.
   */
  function installArm64Explicitly(url: string, link: string, root: string): string {
    const dir = join(work, 'download-explicit');
    mkdirSync(dir, { recursive: true });
    execFileSync('ip', ['netns', 'exec', branch, 'curl', '-fsSLo', join(dir, 'a.tar.gz'), `${url}/downloads/hopwatch-agent-linux-arm64.tar.gz`]);
    execFileSync('tar', ['-C', dir, '-xzf', join(dir, 'a.tar.gz')]);
    const node = join(dir, 'hopwatch-agent/bin/node');
    renameSync(node, `${node}.arm64`);
    writeFileSync(node, `#!/bin/sh\nexec ${qemuAarch64} -L ${aarch64Prefix} "$0.arm64" "$@"\n`);
    chmodSync(node, 0o755);
    return execFileSync('ip', ['netns', 'exec', branch, join(dir, 'hopwatch-agent/install.sh'), link], {
      encoding: 'utf8',
      env: { ...process.env, HOPWATCH_INSTALL_ROOT: root },
      timeout: 300_000,
    });
  }

  /** The installed agent as its unit runs it (ExecStart, Environment=), in the branch namespace. */
  function runAsTheUnit(arch: Installed['arch'], root: string): Installed {
    const state = join(root, 'var/lib/hopwatch-agent');
    const roundLog = join(work, `rounds-${arch}.log`);
    const child = spawn('ip', ['netns', 'exec', branch, join(root, 'opt/hopwatch-agent/hopwatch-agent'), 'run', '--service'], {
      env: {
        ...process.env,
        ...qemuEnv,
        HOPWATCH_AGENT_DIR: state,
        HOPWATCH_AGENT_UNINSTALL: join(root, 'opt/hopwatch-agent/uninstall.sh'),
        HOPWATCH_AGENT_ROUND_LOG: roundLog,
        HOPWATCH_INSTALL_ROOT: root,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)));
    const stop = async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    };
    const rounds = (): AgentRound[] =>
      existsSync(roundLog)
        ? readFileSync(roundLog, 'utf8').trim().split('\n').filter(Boolean).map((l): AgentRound => {
            const [id, time, hops, marker] = l.split(' ');
            return [Number(id), Number(time), Number(hops), marker === 'stop' || marker === 'start' ? marker : undefined];
          })
        : [];
    const installed: Installed = {
      arch,
      root,
      process: {
        pid: child.pid!,
        dir: state,
        roundLog,
        output: () => out,
        spooled: () => spooledBatchCount(join(state, 'spool')),
        rounds,
        stop,
        exited,
        dispose: async () => void (await stop()),
      },
    };
    agents.push(installed);
    return installed;
  }

  /** Samples sent and lost per hop (index hop - 1) of trace `id` from `start` to `end`, as the server stores them. */
  async function perHop(cookie: string, id: number, start: number, end: number): Promise<{ sent: number[]; lost: number[] }> {
    // Buckets of a second from a whole second: exactly the samples of [start, end).
    const b = await hubCall<DataPointBuckets>(hw.url, cookie, 'DataPointBuckets', String(id), start, end, 1, false);
    const sent: number[] = [];
    const lost: number[] = [];
    for (const p of b.Points) {
      p.RouteHostSentCount.forEach((n, i) => (sent[i] = (sent[i] ?? 0) + n));
      p.RouteHostLostCount.forEach((n, i) => (lost[i] = (lost[i] ?? 0) + n));
    }
    return { sent, lost };
  }

  it('installs by the Agents page on aarch64, traces the loss the x64 agent sees, keeps its spool across a server restart, and uninstalls', async () => {
    onTestFailed(() => {
      for (const a of agents) console.log(`${a.arch} agent output:\n${a.process.output()}`);
      console.log(`server output (tail):\n${hw.output().slice(-3000)}`);
    });
    const cookie = await signIn(hw.url, 'admin', 'pw');

    // The page's lines, for each agent its own link; `uname -m` says aarch64 for the Pi.
    const pi = await createAgentWithLink(serverUrl, cookie, 'Raspberry Pi');
    const pc = await createAgentWithLink(serverUrl, cookie, 'Branch PC');
    const piRoot = join(work, 'pi');
    const pcRoot = join(work, 'pc');
    let t = Date.now();
    const piOut =
      emulation!.mode === 'binfmt'
        ? installByThePage(pageLines(pi.link), 'aarch64', piRoot)
        : installArm64Explicitly(serverUrl, pi.link.SetupLink, piRoot);
    console.log(`[arm64] installed in ${((Date.now() - t) / 1000).toFixed(1)} s (${emulation!.mode})`);
    if (emulation!.mode === 'binfmt') expect(piOut).toContain('Downloading the Hopwatch agent for Linux arm64');
    expect(piOut).toContain(`Hopwatch agent installed in ${piRoot}/opt/hopwatch-agent.`);
    expect(readFileSync(join(piRoot, 'opt/hopwatch-agent/bundle-arch'), 'utf8').trim()).toBe('arm64');
    expect(elfMachine(join(piRoot, 'opt/hopwatch-agent', emulation!.mode === 'binfmt' ? 'bin/node' : 'bin/node.arm64'))).toBe(AArch64);
    expect(elfMachine(join(piRoot, 'opt/hopwatch-agent/app/dist/engine/native/rawsock.node'))).toBe(AArch64);
    expect(statSync(join(piRoot, 'var/lib/hopwatch-agent/credentials.json')).mode & 0o777).toBe(0o600);
    const pcOut = installByThePage(pageLines(pc.link), 'x86_64', pcRoot);
    expect(pcOut).toContain('Downloading the Hopwatch agent for Linux x64');
    expect(readFileSync(join(pcRoot, 'opt/hopwatch-agent/bundle-arch'), 'utf8').trim()).toBe('x64');

    t = Date.now();
    const arm = runAsTheUnit('arm64', piRoot);
    const x64 = runAsTheUnit('x64', pcRoot);
    const online = await waitFor('both agents ONLINE', async () => {
      const list = await agentList(hw.url, cookie);
      const both = [pi.agent.ID, pc.agent.ID].map((id) => list.find((a) => a.ID === id && a.IsOnline));
      return both.every(Boolean) ? both : undefined;
    }, 180_000);
    console.log(`[arm64] ONLINE ${((Date.now() - t) / 1000).toFixed(1)} s after its start`);
    expect(online.map((a) => a!.Mode)).toEqual([1, 1]);

    // The same path from the same namespace, started together.
    const [armTrace, x64Trace] = await Promise.all(
      [pi.agent.ID, pc.agent.ID].map(async (agentID) => (await cmd<{ ID: number }>(hw.url, cookie, `/cmd/newtarget?target=${topo.target.v4}&traceInterval=${intervalSeconds}&agentID=${agentID}`)).ID),
    );
    await waitFor('rounds from both agents', async () => arm.process.rounds().length >= 8 && x64.process.rounds().length >= 8, 120_000);
    // Compared from a whole second after both agents measure (the path learnt), for two minutes.
    const start = Math.ceil((Math.max(arm.process.rounds()[0][1], x64.process.rounds()[0][1]) + 2000) / 1000) * 1000;
    const end = start + compareMs;
    const cpuAt = { ms: 0, probes: 0 };
    await sleep(start - Date.now());
    cpuAt.ms = cpuMs(arm.process.pid);
    const x64CpuAt = cpuMs(x64.process.pid);
    await sleep(end - Date.now());
    const armCpu = cpuMs(arm.process.pid) - cpuAt.ms;
    const x64Cpu = cpuMs(x64.process.pid) - x64CpuAt;
    const probesIn = (a: Installed) => a.process.rounds().filter((r) => r[1] >= start && r[1] < end && !r[3]).reduce((n, r) => n + r[2], 0);
    const armProbes = probesIn(arm);
    const x64Probes = probesIn(x64);
    console.log(
      `[arm64] CPU per 1,000 probes: arm64 agent under qemu (emulated) ${((armCpu / armProbes) * 1000).toFixed(0)} ms (${armProbes} probes in ${compareMs / 1000} s), ` +
        `x64 agent (native) ${((x64Cpu / x64Probes) * 1000).toFixed(0)} ms (${x64Probes} probes)`,
    );

    // Per-hop loss as the server stores it, the same window for both.
    await sleep(3000);
    const [a, b] = [await perHop(cookie, armTrace, start, end), await perHop(cookie, x64Trace, start, end)];
    const loss = (h: { sent: number[]; lost: number[] }, i: number) => h.lost[i] / h.sent[i];
    console.log(`[arm64] per-hop loss arm64 / x64: ${[0, 1, 2].map((i) => `hop ${i + 1} ${(loss(a, i) * 100).toFixed(1)}% / ${(loss(b, i) * 100).toFixed(1)}%`).join(', ')} (${a.sent[2]} / ${b.sent[2]} samples at hop 3)`);
    expect(a.sent.length).toBe(3);
    expect(b.sent.length).toBe(3);
    // About 480 rounds each in the window (one every 0.25 s), at least 300 under a busy host.
    for (const h of [a, b]) for (const n of h.sent) expect(n).toBeGreaterThan(300);
    // Hop 1 (router 2) drops nothing: no loss on either.
    expect([a.lost[0], b.lost[0]]).toEqual([0, 0]);
    // Hops 2 and 3 (router 3 and the target, behind the 30% drop): the same loss on both agents,
    // within 4.5 standard deviations of the difference of two binomial proportions, and each the
    // injected 30% within 4.5 of its own.
    for (const i of [1, 2]) {
      const p = 0.3;
      const sdDiff = Math.sqrt(p * (1 - p) * (1 / a.sent[i] + 1 / b.sent[i]));
      expect(Math.abs(loss(a, i) - loss(b, i))).toBeLessThan(4.5 * sdDiff);
      for (const h of [a, b]) expect(Math.abs(loss(h, i) - p)).toBeLessThan(4.5 * Math.sqrt((p * (1 - p)) / h.sent[i]));
    }
    // Each hop's address is the branch's path, on both.
    for (const id of [armTrace, x64Trace]) {
      const g = await hubCall<{ Rows: { IP: string }[] }>(hw.url, cookie, 'TraceGraphRows', [{ ID: String(id), Start: '0' }], [], 'Target', id);
      expect(g.Rows.slice(1).map((r) => r.IP)).toEqual([topo.hop(2).v4, topo.hop(3).v4, topo.target.v4]);
    }

    // The server goes away for a while: the arm64 agent keeps tracing and spools to its disk.
    await hw.stop();
    const stoppedAt = Date.now();
    await waitFor('the arm64 agent spooling', async () => arm.process.spooled() >= 3, 120_000);
    await sleep(stoppedAt + 30_000 - Date.now());
    hw = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: 'pw', HOPWATCH_HOST: '0.0.0.0' }, dataDir: hw.dataDir, port: hw.port });
    const backAt = Date.now();
    await waitFor('the arm64 agent ONLINE again', async () => (await agentList(hw.url, cookie)).find((x) => x.ID === pi.agent.ID && x.IsOnline), 120_000);
    await waitFor('its spool backfilled', async () => arm.process.spooled() === 0, 180_000);
    // Every round it measured from its first to 5 s after the server was back (the outage's
    // included), stored once at its own second; read once the spool is empty and the rounds of
    // that second have long had their answers or time-outs (the trace goes on meanwhile).
    const cutoff = Math.floor((Date.now() + 5000) / 1000) * 1000;
    await sleep(cutoff + 10_000 - Date.now());
    await waitFor('its spool empty', async () => arm.process.spooled() === 0, 60_000);
    const measured = arm.process.rounds().filter((r) => r[0] === armTrace && r[1] < cutoff);
    expect(measured.filter((r) => r[1] > stoppedAt && r[1] < backAt).length).toBeGreaterThan(30 / intervalSeconds / 2);
    // The round log is in delivery order: the server takes a trace's rounds in time order.
    const outOfOrder = measured.filter((r, i) => i > 0 && r[1] <= measured[i - 1][1]);
    expect(outOfOrder, 'rounds delivered after a later one').toEqual([]);
    // Per second, the samples of every hop (a round need not probe every TTL: its hop count is
    // what it measured), against the server's at 1 s.
    const first = Math.floor(measured[0][1] / 1000) * 1000;
    const expected = new Map<number, number>();
    for (const [, time, hops, marker] of measured) {
      const second = Math.floor((time - first) / 1000);
      // A marker round (stop/start) holds no sample.
      expected.set(second, (expected.get(second) ?? 0) + (marker ? 0 : hops));
    }
    onTestFailed(() => {
      const x = x64.process.rounds().filter((r) => r[0] === x64Trace);
      console.log(`arm64 rounds (ms from the first second, hops, marker):\n${measured.map((r) => `${r[1] - first} ${r[2]} ${r[3] ?? ''}`).join('\n')}`);
      console.log(`x64 rounds: ${x.length}, out of order ${x.filter((r, i) => i > 0 && r[1] <= x[i - 1][1]).length}`);
    });
    const perSecond = await hubCall<DataPointBuckets>(hw.url, cookie, 'DataPointBuckets', String(armTrace), first, cutoff, 1, false);
    const stored = new Map(perSecond.Points.map((p) => [p.UnitNumber, p.RouteHostSentCount.reduce((n, x) => n + x, 0)]));
    expect(new Map([...stored].filter(([second, n]) => n > 0 || expected.has(second)))).toEqual(expected);

    // Delete And Uninstall: the agent runs its uninstall.sh and exits; nothing of it is left.
    for (const [inst, id] of [[arm, pi.agent.ID], [x64, pc.agent.ID]] as const) {
      expect((await fetch(`${hw.url}/cmd/deleteAgent?sentinelId=${id}&shouldUninstall=true`, { headers: { cookie } })).status).toBe(204);
      expect(await inst.process.exited).toBe(0);
      await waitFor(`the ${inst.arch} uninstall done`, async () => !existsSync(join(inst.root, 'opt/hopwatch-agent')));
      for (const p of ['var/lib/hopwatch-agent', 'etc/systemd/system/hopwatch-agent.service', 'usr/share/applications/hopwatch-agent-setup.desktop']) {
        expect(existsSync(join(inst.root, p)), p).toBe(false);
      }
    }
  }, 900_000);
});
