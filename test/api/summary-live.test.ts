// SummaryHostUpdated over /mainHub: a target's HostUpdated reaches the connections registered
// for every summary the target shows in (All Targets and named ones), and a target added to a
// summary after its membership was looked up is heard there from then on (the server caches
// memberships until a summary or session event, and All Targets, created by the account's first
// summary list, is such an event).
import { HttpTransportType } from '@microsoft/signalr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { engineEnv } from '../support/trace-network.js';
import { connectHub } from '../security/support.js';
import { seedSessions, type SeededSession } from './seed-sessions.js';

const RootPassword = 'summary-live-root-pw';
let hw: Appliance;
let admin: string;
let targetA: SeededSession;
let targetB: SeededSession;

const call = async <T>(path: string): Promise<T> => {
  const r = await fetch(`${hw.url}${path}`, { headers: { cookie: admin } });
  const text = await r.text();
  expect(r.status, `${path}: ${text}`).toBe(200);
  return JSON.parse(text) as T;
};

beforeAll(async () => {
  const first = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: RootPassword, ...engineEnv() } });
  await first.stop();
  // Paused sessions: no engine traces them; HostUpdated comes from editing a hop's name.
  [targetA, targetB] = await seedSessions(first.dataDir, [
    { target: '127.0.0.1', state: 1 },
    { target: '127.0.0.2', state: 1 },
  ]);
  hw = await startAppliance({ dataDir: first.dataDir, port: first.port, env: { HOPWATCH_ROOT_PASSWORD: RootPassword, ...engineEnv() } });
  admin = await signIn(hw.url, 'admin', RootPassword);
}, 180_000);
afterAll(async () => {
  await hw?.dispose();
});

describe('SummaryHostUpdated', () => {
  it('reaches All Targets and the named summaries of the target, and follows a membership change', async () => {
    const hub = await connectHub(hw, admin, HttpTransportType.WebSockets);
    try {
      // An update before anyone listed the summaries: the server looks up (and caches) A's
      // memberships while the account has no All Targets yet; the first list creates it.
      await hub.connection.invoke('UpdateHostValue', `${targetA.id}_h_1`, 'Name', 'before the list');
      await new Promise((r) => setTimeout(r, 300));
      const all = (await call<{ UniqueID: string; IsAllTargets: boolean }[]>('/cmd/getsummaries')).find((s) => s.IsAllTargets)!;
      const heard: string[][] = [];
      hub.connection.on('SummaryHostUpdated', (summary: string, row: string) => heard.push([summary, row]));
      const waitFor = async (want: string[][]) => {
        for (let i = 0; i < 100 && !want.every((w) => heard.some((h) => h[0] === w[0] && h[1] === w[1])); i++) await new Promise((r) => setTimeout(r, 50));
        return heard.splice(0);
      };
      await hub.connection.invoke('RegisterForChangesToSummary', all.UniqueID);
      // Heard on the new All Targets at once (no other summary or session event came between).
      await hub.connection.invoke('UpdateHostValue', `${targetA.id}_h_1`, 'Name', 'first');
      expect(await waitFor([[all.UniqueID, `${targetA.id}_h_1`]])).toContainEqual([all.UniqueID, `${targetA.id}_h_1`]);

      const named = await call<{ UniqueID: string }>(`/cmd/createsummary?name=${encodeURIComponent('Branch links')}`);
      await call(`/cmd/addhost?host=${targetA.id}&ID=${named.UniqueID}`);
      await hub.connection.invoke('RegisterForChangesToSummary', named.UniqueID);

      await hub.connection.invoke('UpdateHostValue', `${targetA.id}_h_1`, 'Name', 'gateway');
      const a = await waitFor([[all.UniqueID, `${targetA.id}_h_1`], [named.UniqueID, `${targetA.id}_h_1`]]);
      expect(a).toEqual(expect.arrayContaining([[all.UniqueID, `${targetA.id}_h_1`], [named.UniqueID, `${targetA.id}_h_1`]]));

      // B shows in All Targets only; its membership is now known to the server.
      await hub.connection.invoke('UpdateHostValue', `${targetB.id}_h_1`, 'Name', 'edge');
      const b = await waitFor([[all.UniqueID, `${targetB.id}_h_1`]]);
      expect(b).toContainEqual([all.UniqueID, `${targetB.id}_h_1`]);
      expect(b).not.toContainEqual([named.UniqueID, `${targetB.id}_h_1`]);

      // Added to the named summary: heard there from its next update on.
      await call(`/cmd/addhost?host=${targetB.id}&ID=${named.UniqueID}`);
      await hub.connection.invoke('UpdateHostValue', `${targetB.id}_h_1`, 'Name', 'edge 2');
      const b2 = await waitFor([[all.UniqueID, `${targetB.id}_h_1`], [named.UniqueID, `${targetB.id}_h_1`]]);
      expect(b2).toEqual(expect.arrayContaining([[all.UniqueID, `${targetB.id}_h_1`], [named.UniqueID, `${targetB.id}_h_1`]]));
    } finally {
      await hub.connection.stop();
    }
  });
});
