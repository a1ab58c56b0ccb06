// The agent links' peers over a real Redis (server/cluster/agent-peers.ts): a re-resolve asked on
// one replica is answered by the replica holding the agent's link; with no holder the answer is
// undefined at once (the caller then resolves itself, as for an offline agent); commands reach
// the other replica only; presence comes and goes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisLinkPeers } from '../../server/cluster/agent-peers.js';
import type { LinkCommand, LinkedAgent } from '../../server/agents/link-peers.js';
import { quietLog, redisReplicas, until, type RedisReplicas } from '../support/redis-replicas.js';

describe('RedisLinkPeers', () => {
  let r: RedisReplicas;
  const peers: RedisLinkPeers[] = [];

  beforeAll(async () => {
    r = await redisReplicas();
  });
  afterAll(async () => {
    for (const p of peers) await p.close();
    await r?.close();
  });

  function replica(linked: LinkedAgent[], answer: string | undefined) {
    const c = r.another();
    const p = new RedisLinkPeers(c, 3000, quietLog);
    peers.push(p);
    const commands: LinkCommand[] = [];
    const asked: number[] = [];
    p.serve({
      command: (cmd) => commands.push(cmd),
      reResolve: async (traceId) => {
        asked.push(traceId);
        return answer;
      },
    });
    p.linkedHere(() => linked);
    return { c, p, commands, asked, linked };
  }

  it('answers a re-resolve from the replica holding the link, and shares presence and commands', async () => {
    const a = replica([{ agentId: 7, interfaces: [{ ID: 'eth0', Name: 'eth0' }] }], '192.0.2.7');
    const b = replica([], undefined);
    await until(() => a.c.available && b.c.available, 'Redis');
    a.p.changed(7);
    await until(() => b.p.elsewhere().has(7), 'agent 7 on B');
    expect(b.p.elsewhere().get(7)).toEqual({ agentId: 7, interfaces: [{ ID: 'eth0', Name: 'eth0' }] });
    expect(a.p.elsewhere().has(7)).toBe(false); // A's own links are not "elsewhere" for A

    expect(await b.p.reResolve(7, 41)).toBe('192.0.2.7');
    expect(a.asked).toEqual([41]);
    // No replica holds agent 8: no one is asked, the answer is undefined.
    expect(await b.p.reResolve(8, 42)).toBeUndefined();
    expect(a.asked).toEqual([41]);

    b.p.broadcast({ t: 'stop', traceId: 41 });
    await until(() => a.commands.length === 1, 'the command on A');
    expect(a.commands).toEqual([{ t: 'stop', traceId: 41 }]);
    expect(b.commands).toEqual([]); // not back to the sender

    // The link goes: B learns it at once.
    a.linked.length = 0;
    a.p.changed(7);
    await until(() => !b.p.elsewhere().has(7), 'agent 7 gone on B');
  });
});
