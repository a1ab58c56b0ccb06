import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentProgram } from './program.js';
import { LinkDownGraceMs, linkHealth, readLinkStatus, type LinkStatus } from './link-status.js';
import { AgentState } from './state.js';
import { agentLinkServer, noTraceEngine } from '../test/support/agent-link-server.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const runs = () => true;
const gone = () => false;

describe('agent health', () => {
  it('is healthy while the link is up, and while it has been down for less than the grace', () => {
    const up: LinkStatus = { state: 'up', since: 1_000, pid: 1 };
    expect(linkHealth(up, 999_999, runs)).toEqual({ healthy: true, text: 'The agent link is up since 1970-01-01T00:00:01.000Z.' });
    const down: LinkStatus = { state: 'down', since: 1_000, pid: 1, detail: 'connect ECONNREFUSED 127.0.0.1:8080' };
    expect(linkHealth(down, 1_000 + LinkDownGraceMs - 1, runs).healthy).toBe(true);
    const late = linkHealth(down, 1_000 + LinkDownGraceMs, runs);
    expect(late.healthy).toBe(false);
    expect(late.text).toBe(
      'The agent link is down since 1970-01-01T00:00:01.000Z, 60 s (connect ECONNREFUSED 127.0.0.1:8080); traces go on and their rounds are kept in the spool.',
    );
  });

  it('is unhealthy before the agent wrote its state, and when the process that wrote it is gone', () => {
    expect(linkHealth(undefined, 0, runs)).toEqual({ healthy: false, text: 'The agent has not started (no link state yet).' });
    expect(linkHealth({ state: 'up', since: 0, pid: 4242 }, 1, gone)).toEqual({ healthy: false, text: 'The agent is not running (process 4242 is gone).' });
  });

  it('the running agent writes its link state: down while refused, up once assigned, down when the server closes it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hopwatch-link-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const state = new AgentState(dir);
    // The first attempt is refused as the server refuses a wrong credential.
    const server = await agentLinkServer((attempt) => (attempt === 1 ? JSON.stringify({ Error: 'The agent credential is not valid.' }) : undefined));
    cleanups.push(() => server.close());
    server.wss.on('connection', (ws) => {
      ws.on('message', (data) => {
        if ((JSON.parse(data.toString()) as { t: string }).t === 'hello') ws.send(JSON.stringify({ t: 'assign', traces: [], lastSeq: 0 }));
      });
    });

    const seen: LinkStatus[] = [];
    const waitFor = async (want: (s: LinkStatus) => boolean) => {
      for (let i = 0; i < 500; i++) {
        const s = readLinkStatus(dir);
        if (s && (seen.at(-1)?.state !== s.state || seen.at(-1)?.detail !== s.detail)) seen.push(s);
        if (s && want(s)) return s;
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error(`link state not reached; seen ${JSON.stringify(seen)}`);
    };

    const program = new AgentProgram(server.creds, { state, engine: noTraceEngine, mode: 2, log: () => undefined });
    cleanups.push(() => program.stop());
    await program.start();

    const refused = await waitFor((s) => s.state === 'down' && !!s.detail?.startsWith('refused'));
    expect(refused.detail).toBe('refused by the server (401): {"Error":"The agent credential is not valid."}');
    expect(refused.pid).toBe(process.pid);
    const up = await waitFor((s) => s.state === 'up');
    expect(linkHealth(up, Date.now()).healthy).toBe(true);

    for (const c of server.wss.clients) c.terminate();
    const down = await waitFor((s) => s.state === 'down');
    // A terminate sends no close frame: the connection was lost, whoever ended it.
    expect(down.detail).toBe('the connection was lost (1006)');
    expect(down.since).toBeGreaterThanOrEqual(up.since);
    // Within the grace the agent is still healthy; it reconnects by itself.
    expect(linkHealth(down, Date.now()).healthy).toBe(true);
    await waitFor((s) => s.state === 'up' && s.since > down.since);
  }, 30_000);
});
