// Podman as the container engine of the container suite, set up the way ARCHITECTURE.md
// ("Containers") verified on this machine kind: rootful podman with runc and host-sized
// ulimits from a containers.conf named by CONTAINERS_CONF, images built from local base
// images (no registry is reachable), npm reached through the host's CA bundle.
import { execFile, spawn } from 'node:child_process';
import { get } from 'node:http';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const hostCaBundle = '/etc/ssl/certs/ca-certificates.crt';

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to the end; never throws on a non-zero exit (the caller decides). */
export function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env, timeoutMs = 15 * 60_000): Promise<RunResult> {
  return new Promise((ok) => {
    execFile(cmd, args, { env, timeout: timeoutMs, maxBuffer: 256 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      ok({ code, stdout: String(stdout), stderr: String(stderr) + (err && typeof err.code !== 'number' ? String(err) : '') });
    });
  });
}

/** Runs a command and throws with its output when it fails. */
export async function must(cmd: string, args: string[], env?: NodeJS.ProcessEnv, timeoutMs?: number): Promise<string> {
  const r = await run(cmd, args, env, timeoutMs);
  if (r.code !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.code}:\n${r.stderr.slice(-4000)}\n${r.stdout.slice(-2000)}`);
  return r.stdout;
}

export class Podman {
  /** Environment for every podman call (CONTAINERS_CONF set). */
  readonly env: NodeJS.ProcessEnv;
  private constructor(readonly confDir: string) {
    this.env = { ...process.env, CONTAINERS_CONF: join(confDir, 'containers.conf') };
  }

  /**
   * Installs podman, runc and debootstrap when missing (root on Debian), writes the
   * containers.conf and checks that podman can run. Throws a message saying what is wrong.
   */
  static async open(): Promise<Podman> {
    if (process.getuid?.() !== 0) {
      throw new Error('The container suite needs root (rootful podman, debootstrap). Run `npm test` as root.');
    }
    // The CNI dnsname plugin: containers on a compose network find each other by service name.
    const wanted = ['podman', 'runc', 'debootstrap', 'podman-compose', 'golang-github-containernetworking-plugin-dnsname'];
    const missing: string[] = [];
    for (const p of wanted) {
      const q = await run('dpkg-query', ['-W', '-f=${Status}', p]);
      if (!q.stdout.includes('install ok installed')) missing.push(p);
    }
    if (missing.length > 0) {
      const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
      await must('apt-get', ['update', '-qq'], env);
      await must('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], env);
    }
    const confDir = mkdtempSync(join(tmpdir(), 'hopwatch-podman-'));
    // crun fails on this host's hybrid cgroups; podman's default ulimits exceed the host's.
    writeFileSync(
      join(confDir, 'containers.conf'),
      '[containers]\ndefault_ulimits = ["nofile=20000:20000", "nproc=1000:1000"]\n\n[engine]\nruntime = "runc"\n',
    );
    const podman = new Podman(confDir);
    const info = await podman.run(['info', '--format', '{{.Host.OCIRuntime.Name}}']);
    if (info.code !== 0) {
      podman.dispose();
      throw new Error(`podman cannot work here:\n${info.stderr}`);
    }
    return podman;
  }

  run(args: string[], timeoutMs?: number): Promise<RunResult> {
    return run('podman', args, this.env, timeoutMs);
  }

  must(args: string[], timeoutMs?: number): Promise<string> {
    return must('podman', args, this.env, timeoutMs);
  }

  async imageExists(ref: string): Promise<boolean> {
    return (await this.run(['image', 'exists', ref])).code === 0;
  }

  /** Image size in bytes as podman reports it (sum of its layers, uncompressed). */
  async imageSize(ref: string): Promise<number> {
    return Number((await this.must(['image', 'inspect', '--format', '{{.Size}}', ref])).trim());
  }

  /** Runs a shell pipeline with the podman environment (for `tar | podman import`). */
  shell(script: string, timeoutMs?: number): Promise<string> {
    return must('bash', ['-euo', 'pipefail', '-c', script], this.env, timeoutMs);
  }

  /**
   * Starts `podman system service` on a fresh unix socket: a Docker-compatible API for
   * Docker clients (testcontainers). Resolves once the socket answers /_ping.
   */
  async startService(): Promise<{ socketPath: string; dockerHost: string; stop: () => Promise<void> }> {
    const socketPath = join(this.confDir, `podman-${process.pid}.sock`);
    const child = spawn('podman', ['system', 'service', '--time=0', `unix://${socketPath}`], {
      env: this.env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr!.on('data', (d) => (err += d));
    const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
    const stop = async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const killTimer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(killTimer);
      }
      rmSync(socketPath, { force: true });
    };
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`podman system service exited ${child.exitCode}:\n${err}`);
      if (existsSync(socketPath) && (await pingSocket(socketPath))) break;
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`podman system service did not open ${socketPath}:\n${err}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    return { socketPath, dockerHost: `unix://${socketPath}`, stop };
  }

  dispose(): void {
    rmSync(this.confDir, { recursive: true, force: true });
  }
}

/** True when the Docker-compatible API on the socket answers GET /_ping with 200. */
function pingSocket(socketPath: string): Promise<boolean> {
  return new Promise((ok) => {
    const req = get({ socketPath, path: '/_ping', timeout: 2000 }, (res) => {
      res.resume();
      ok(res.statusCode === 200);
    });
    req.on('error', () => ok(false));
    req.on('timeout', () => {
      req.destroy();
      ok(false);
    });
  });
}
