// GET /cmd/getsettingslist over real HTTP: the settings list items {id, name} of every
// configuration, for signed-in users only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { dataDirWithConfigurations } from '../support/configurations.js';

const RootPassword = 'configurations-root-pw';
let one: Appliance;
let two: Appliance;
let extraId = 0;

beforeAll(async () => {
  const { dataDir, ids } = await dataDirWithConfigurations([{ name: 'Tight thresholds', warn: 20, bad: 40 }]);
  extraId = ids[0];
  [one, two] = await Promise.all([
    startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: RootPassword } }),
    startAppliance({ dataDir, env: { HOPWATCH_ROOT_PASSWORD: RootPassword } }),
  ]);
}, 120_000);
afterAll(async () => {
  await Promise.all([one?.dispose(), two?.dispose()]);
});

const list = async (hw: Appliance, cookie?: string) => fetch(`${hw.url}/cmd/getsettingslist`, { headers: cookie ? { cookie } : {} });

describe('GET /cmd/getsettingslist', () => {
  it('answers the Default configuration of a fresh server as {id, name}', async () => {
    const r = await list(one, await signIn(one.url, 'admin', RootPassword));
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual([{ id: 1, name: 'Default' }]);
  });

  it('lists every configuration in id order, and the added one has its own display settings', async () => {
    const cookie = await signIn(two.url, 'admin', RootPassword);
    const r = await list(two, cookie);
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual([
      { id: 1, name: 'Default' },
      { id: extraId, name: 'Tight thresholds' },
    ]);
    const d = await fetch(`${two.url}/api/data/DisplaySettings?configId=${extraId}`, { headers: { cookie } });
    expect(await d.json()).toMatchObject({ Warn: 20, Bad: 40 });
  });

  it('refuses a caller who is not signed in', async () => {
    const r = await list(one);
    expect(r.status).toBe(401);
    expect(typeof (await r.json()).Error).toBe('string');
  });
});
