// Issue 46 item 1: the self-served installer (/downloads/hopwatch-agent-install.sh, built from
// agent/bundle/machine-arch.sh and get-agent.sh) picks the bundle by `uname -m`; a machine it
// cannot serve is told what is supported (a 32-bit Raspberry Pi OS user what to do) and nothing
// is downloaded; both bundles are served; the arm64 bundle's install.sh on a machine that cannot
// run it names the bundle that machine needs. The arm64 agent at work: agent-arm64.test.ts.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppliance, type Appliance } from '../support/appliance.js';
import { asRoot } from '../netns/rounds.js';
import { AgentBundleArchs, agentBundlePath, AgentInstallerScriptPath } from '../../server/contract/agents.js';

const repo = resolve(import.meta.dirname, '../..');

describe('the self-served agent installer', () => {
  let hw: Appliance;
  let dir: string;
  let script: string;

  beforeAll(async () => {
    if (!existsSync(join(repo, 'dist/agent-bundle/hopwatch-agent-install.sh'))) execFileSync('sh', ['agent/bundle/build.sh'], { cwd: repo, stdio: 'ignore' });
    hw = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: 'pw', HOPWATCH_ENGINE: 'simulated' } });
    dir = mkdtempSync(join(tmpdir(), 'hopwatch-installer-'));
    script = join(dir, 'hopwatch-agent-install.sh');
  }, 300_000);
  afterAll(async () => {
    await hw?.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Runs the served installer with `uname -m` (and `getconf LONG_BIT`) answering as given. */
  function runAs(machine: string, bits = '64', args: string[] = ['hopwatch://setup?mode=sentinel&id=1&key=k&server=x']) {
    const bin = join(dir, `bin-${machine}-${bits}`);
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'uname'), `#!/bin/sh\nif [ "$1" = -m ]; then echo ${machine}; else exec /bin/uname "$@"; fi\n`);
    writeFileSync(join(bin, 'getconf'), `#!/bin/sh\n[ "$1" = LONG_BIT ] && echo ${bits}\n`);
    chmodSync(join(bin, 'uname'), 0o755);
    chmodSync(join(bin, 'getconf'), 0o755);
    const tmp = join(dir, `tmp-${machine}-${bits}`);
    mkdirSync(tmp, { recursive: true });
    const r = spawnSync('sh', [script, ...args], {
      encoding: 'utf8',
      env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, TMPDIR: tmp, HOPWATCH_INSTALL_ROOT: join(dir, 'root') },
    });
    return { ...r, downloaded: readdirSync(tmp).length > 0 };
  }

  it('is served without a session with this server address, quoted for the shell', async () => {
    const r = await fetch(hw.url + AgentInstallerScriptPath);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/x-shellscript/);
    const text = await r.text();
    expect(text).toContain(`server='${hw.url}'`);
    expect(text).not.toContain('@HOPWATCH_SERVER@');
    writeFileSync(script, text);
    // A Host header cannot put shell text into the script.
    // (node:http: fetch sets Host itself.)
    const evil = await new Promise<string>((ok, fail) =>
      httpGet(hw.url + AgentInstallerScriptPath, { headers: { host: `x'$(touch /tmp/pwned)'` } }, (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => ok(`${res.statusCode} ${body}`));
      }).on('error', fail),
    );
    expect(evil).toMatch(/^200 /);
    expect(evil).toContain(`\nserver='http://x'\\''$(touch /tmp/pwned)'\\'''\n`);
    // sh reads it back as the text it was.
    const line = evil.split('\n').find((l) => l.startsWith('server='))!;
    expect(execFileSync('sh', ['-c', `${line}; printf %s "$server"`], { encoding: 'utf8' })).toBe(`http://x'$(touch /tmp/pwned)'`);
  });

  it('serves the bundle of each supported CPU', async () => {
    for (const arch of AgentBundleArchs) {
      const r = await fetch(hw.url + agentBundlePath(arch), { method: 'HEAD' });
      expect(r.status, arch).toBe(200);
      expect(r.headers.get('content-type')).toBe('application/gzip');
      expect(Number(r.headers.get('content-length'))).toBeGreaterThan(10e6);
    }
  });

  it('tells a 32-bit Raspberry Pi OS user what to do, and downloads nothing', () => {
    for (const [machine, bits] of [['armv7l', '32'], ['armv6l', '32'], ['aarch64', '32']]) {
      const r = runAs(machine, bits);
      expect(r.status, machine).toBe(1);
      expect(r.stderr).toContain(`The Hopwatch agent does not run on 32-bit ARM (${machine}, 32-bit userland)`);
      expect(r.stderr).toContain('Linux x64 (x86_64) and Linux arm64 (aarch64');
      expect(r.stderr).toContain('install Raspberry Pi OS (64-bit)');
      expect(r.downloaded).toBe(false);
    }
  });

  it('names what is supported on any other machine', () => {
    const r = runAs('riscv64');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('The Hopwatch agent does not run on this machine (riscv64, 64-bit): it runs on Linux x64 (x86_64) and Linux arm64 (aarch64');
    expect(r.downloaded).toBe(false);
  });

  it('picks arm64 on aarch64 and x64 on x86_64 (an unknown link: nothing installed)', () => {
    const arm = runAs('aarch64');
    expect(arm.stdout).toContain(`Downloading the Hopwatch agent for Linux arm64: ${hw.url}/downloads/hopwatch-agent-linux-arm64.tar.gz`);
    const x64 = runAs('x86_64');
    expect(x64.stdout).toContain(`Downloading the Hopwatch agent for Linux x64: ${hw.url}/downloads/hopwatch-agent-linux-x64.tar.gz`);
    // The link's server does not exist: install.sh refuses it and installs nothing; the download is removed.
    expect(x64.status).not.toBe(0);
    expect(x64.stdout + x64.stderr).toContain('nothing was installed');
    expect(existsSync(join(dir, 'root/opt/hopwatch-agent'))).toBe(false);
    expect(readdirSync(join(dir, 'tmp-x86_64-64'))).toEqual([]);
  }, 120_000);

  // A user namespace with a binfmt_misc of its own (Linux 6.7+) has no arm64 handler, whatever
  // the machine has registered: the arm64 bundle's Node cannot run there, as on a plain PC.
  it.runIf(asRoot)("the arm64 bundle's install.sh on an x64 machine names the bundle it needs", () => {
    const unpacked = join(dir, 'arm64');
    mkdirSync(unpacked);
    execFileSync('tar', ['-C', unpacked, '-xzf', join(repo, 'dist/agent-bundle/hopwatch-agent-linux-arm64.tar.gz')]);
    const install = join(unpacked, 'hopwatch-agent/install.sh');
    const r = spawnSync(
      'unshare',
      ['--user', '--map-root-user', '--mount', 'sh', '-c', `mount -t binfmt_misc none /proc/sys/fs/binfmt_misc && exec "${install}" 'hopwatch://setup?mode=sentinel&id=1&key=k&server=x'`],
      { encoding: 'utf8', env: { ...process.env, HOPWATCH_INSTALL_ROOT: join(dir, 'root-arm64') } },
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      'install.sh: this is the Hopwatch agent for Linux arm64; this machine (x86_64) needs hopwatch-agent-linux-x64.tar.gz from the same server',
    );
    expect(existsSync(join(dir, 'root-arm64'))).toBe(false);
  });
});
