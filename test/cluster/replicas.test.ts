// Two replicas on one PostgreSQL and one Redis (issue 43 item 1). The hub backplane (docs/hub.md
// "Backplane"): a console connected to replica B hears the HostUpdated of a target that replica
// A traces and ingests, in the same order as a console on A. Limits count the attempts made on
// both (docs/scale.md "Redis"); caches and connections follow changes made on the other
// (sign-out, summary membership). With Redis stopped each
// replica still serves its own consoles and /readyz says what is missing; when Redis returns
// on the same port the backplane works again without a restart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpTransportType, HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr';
import { signIn } from '../support/appliance.js';
import { startCluster, type TestCluster } from '../support/cluster.js';

function connect(url: string, cookie: string, transport = HttpTransportType.WebSockets): HubConnection {
  return new HubConnectionBuilder().withUrl(`${url}/mainHub`, { transport, headers: { cookie } }).configureLogging(LogLevel.None).build();
}

async function until(test: () => boolean | Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

type Seen = { id: string; time: string }[];

async function listen(url: string, cookie: string, targetId: number, transport?: HttpTransportType): Promise<{ c: HubConnection; seen: Seen }> {
  const c = connect(url, cookie, transport);
  const seen: Seen = [];
  c.on('HostUpdated', (id: string, time: string) => seen.push({ id, time }));
  await c.start();
  await c.invoke('RegisterForNewSamples', targetId);
  return { c, seen };
}

describe('two replicas on PostgreSQL and Redis', () => {
  let cluster: TestCluster;
  let a: string;
  let b: string;
  let cookieA: string;
  let cookieB: string;
  let targetId: number;

  beforeAll(async () => {
    cluster = await startCluster(2);
    [a, b] = cluster.replicas.map((r) => r.url);
    cookieA = await signIn(a, 'admin', cluster.password);
    cookieB = await signIn(b, 'admin', cluster.password);
    // Created through A: A's Local Machine traces it and A ingests its rounds.
    const r = await fetch(`${a}/cmd/newtarget?target=127.0.0.1&traceInterval=1`, { headers: { cookie: cookieA } });
    expect(r.status).toBe(200);
    targetId = (await r.json()).ID;
  }, 60_000);

  afterAll(async () => {
    await cluster?.dispose();
  });

  it("reaches a console on B with A's HostUpdated, in the order a console on A hears them", async () => {
    const onA = await listen(a, cookieA, targetId);
    const onB = await listen(b, cookieB, targetId);
    const onBPolling = await listen(b, cookieB, targetId, HttpTransportType.LongPolling);
    try {
      await until(() => onB.seen.length >= 6 && onBPolling.seen.length >= 6 && onA.seen.length >= 6, 'HostUpdated on both replicas');
      expect(onB.seen.every((e) => e.id.startsWith(String(targetId)))).toBe(true);
      // One order for the group on every replica: B's sequence is A's, from where both listened.
      const key = (e: Seen[number]) => `${e.id}@${e.time}`;
      const start = onA.seen.findIndex((e) => key(e) === key(onB.seen[0]));
      expect(start).toBeGreaterThanOrEqual(0);
      const n = Math.min(onA.seen.length - start, onB.seen.length);
      expect(onB.seen.slice(0, n).map(key)).toEqual(onA.seen.slice(start, start + n).map(key));
      const times = onB.seen.map((e) => Date.parse(e.time));
      expect(times).toEqual([...times].sort((x, y) => x - y));
    } finally {
      await Promise.all([onA.c.stop(), onB.c.stop(), onBPolling.c.stop()]);
    }
  });

  it('throttles sign-ins by the failures made on both replicas (the limit does not double)', async () => {
    const attempt = (url: string) =>
      fetch(`${url}/api/Account/Login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ Username: 'mallory', Password: 'guess' }),
      }).then((r) => r.status);
    // Five failures (the limit per name and address), spread: three on A, two on B.
    expect([await attempt(a), await attempt(b), await attempt(a), await attempt(b), await attempt(a)]).toEqual([401, 401, 401, 401, 401]);
    expect(await attempt(a)).toBe(429);
    expect(await attempt(b)).toBe(429);
  });

  it("closes B's connections of a session signed out on A", async () => {
    const cookie = await signIn(a, 'admin', cluster.password);
    const c = connect(b, cookie);
    let closed: Error | undefined | 'open' = 'open';
    c.onclose((err) => (closed = err));
    await c.start();
    const out = await fetch(`${a}/api/Account/Logout`, { method: 'POST', headers: { cookie } });
    expect(out.status).toBeLessThan(300);
    await until(() => closed !== 'open', "B's connection closed");
    expect(String(closed)).toMatch(/signed out|not signed in/i);
  });

  it("sees on A a summary changed on B: B's console hears A's SummaryHostUpdated of a target added there", async () => {
    const summary = (await (await fetch(`${b}/cmd/createsummary?name=Replicated`, { headers: { cookie: cookieB } })).json()) as { UniqueID: string };
    const c = connect(b, cookieB);
    const heard: string[] = [];
    c.on('SummaryHostUpdated', (id: string) => heard.push(id));
    await c.start();
    try {
      await c.invoke('RegisterForChangesToSummary', Number(summary.UniqueID));
      // A ingests the target and has cached that it is in no named summary; B adds it to one.
      const added = await fetch(`${b}/cmd/addhost?host=${targetId}&ID=${summary.UniqueID}`, { headers: { cookie: cookieB } });
      expect(added.status).toBe(200);
      await until(() => heard.includes(summary.UniqueID), `SummaryHostUpdated of summary ${summary.UniqueID} on B`);
    } finally {
      await c.stop();
    }
  });

  it('keeps serving its own consoles while Redis is away, says so in /readyz, and shares again once it is back', async () => {
    await cluster.redis.pause();
    try {
      await until(async () => ((await (await fetch(`${a}/readyz`)).json()) as { Detail?: string }).Detail !== undefined, '/readyz detail');
      const ready = await fetch(`${a}/readyz`);
      expect(ready.status).toBe(200);
      const body = (await ready.json()) as { Status: string; Detail: string };
      expect(body.Status).toBe('ready');
      expect(body.Detail).toMatch(/^Redis at redis:\/\/127\.0\.0\.1:\d+ does not answer since .*: this replica serves only its own connections/);
      // The replica that ingests the target still serves its own consoles (whichever of the
      // two runs it: with a leader for the Local Machine's traces it may be either).
      const onA = await listen(a, cookieA, targetId);
      const onB = await listen(b, cookieB, targetId);
      try {
        await until(() => onA.seen.length >= 2 || onB.seen.length >= 2, 'HostUpdated on the ingesting replica during the outage');
      } finally {
        await Promise.all([onA.c.stop(), onB.c.stop()]);
      }
    } finally {
      await cluster.redis.resume();
    }
    await until(async () => ((await (await fetch(`${a}/readyz`)).json()) as { Detail?: string }).Detail === undefined, 'Redis back on A');
    await until(async () => ((await (await fetch(`${b}/readyz`)).json()) as { Detail?: string }).Detail === undefined, 'Redis back on B');
    // Both replicas' consoles hear the target again: the one that does not ingest it, through Redis.
    const onA = await listen(a, cookieA, targetId);
    const onB = await listen(b, cookieB, targetId);
    try {
      await until(() => onA.seen.length >= 2 && onB.seen.length >= 2, 'HostUpdated on A and B after Redis returned');
    } finally {
      await Promise.all([onA.c.stop(), onB.c.stop()]);
    }
    // Logged once for the outage (not per reconnect attempt), and once when it ended.
    expect(cluster.replicas[0].output().match(/does not answer since/g)).toHaveLength(1);
    expect(cluster.replicas[0].output().match(/Redis is back:/g)).toHaveLength(1);
  });
});
