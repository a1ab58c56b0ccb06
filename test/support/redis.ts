// A throwaway Redis 7 for a suite (issue 43): Debian's redis-server (test/setup.sh installs
// it) on its own port, with no persistence, in a temp directory removed by stop(). stop() and
// start() again on the same port stand in for a Redis outage.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './postgres.js';

export const RedisServerBin = '/usr/bin/redis-server';

export interface ThrowawayRedis {
  /** redis://127.0.0.1:PORT */
  url: string;
  port: number;
  /** Stops the server (an outage); the port and directory stay for start(). */
  pause(): Promise<void>;
  /** Starts it again on the same port (empty: nothing was saved). */
  resume(): Promise<void>;
  /** Stops it and removes its directory. */
  stop(): Promise<void>;
}

/** Whether Debian's redis-server is installed (test/setup.sh installs it). */
export function redisInstalled(): boolean {
  return existsSync(RedisServerBin);
}

/** Resolves once the port accepts a connection and answers PING. */
async function answers(port: number, deadline: number): Promise<void> {
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = createConnection({ port, host: '127.0.0.1' });
      s.once('error', () => resolve(false));
      s.once('connect', () => s.write('PING\r\n'));
      s.once('data', (d) => {
        s.destroy();
        resolve(d.toString().startsWith('+PONG'));
      });
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`redis-server did not answer on port ${port}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export async function startRedis(): Promise<ThrowawayRedis> {
  const dir = mkdtempSync(join(tmpdir(), 'hopwatch-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  let log = '';
  const launch = async () => {
    child = spawn(RedisServerBin, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (d) => (log += d));
    child.stderr!.on('data', (d) => (log += d));
    try {
      await answers(port, Date.now() + 10_000);
    } catch (err) {
      throw new Error(`${(err as Error).message}\n${log}`);
    }
  };
  const halt = async () => {
    const c = child;
    child = undefined;
    if (!c || c.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      c.once('exit', () => resolve());
      c.kill('SIGKILL');
    });
  };
  await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    pause: halt,
    resume: launch,
    async stop() {
      await halt();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
