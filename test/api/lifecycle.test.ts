// Start, SIGTERM, restart: data survives; configuration variables take effect.
import { afterEach, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';

const started: Appliance[] = [];
afterEach(async () => {
  for (const a of started.splice(0)) await a.dispose();
});
async function start(env?: Record<string, string>) {
  const a = await startAppliance({ env });
  started.push(a);
  return a;
}

describe('lifecycle', () => {
  it('stops cleanly on SIGTERM within 5 s and keeps users across a restart', async () => {
    const hw = await start();
    const admin = await signIn(hw.url, 'admin', hw.rootPassword!);
    const created = await fetch(`${hw.url}/api/user?password=lifecycle-pw-1`, {
      method: 'POST',
      headers: { cookie: admin, 'content-type': 'application/json' },
      body: JSON.stringify({ EmailAddress: 'erin@example.org', Roles: ['TargetManagement'] }),
    });
    expect(created.status).toBe(200);

    const stopped = await hw.stop();
    expect(stopped.code).toBe(0);
    expect(stopped.ms).toBeLessThan(5000);
    expect(hw.output()).toMatch(/stopped cleanly/);

    const again = await hw.restart();
    started.push(again);
    expect(again.rootPassword).toBeUndefined(); // printed only at first creation
    await signIn(again.url, 'admin', hw.rootPassword!);
    await signIn(again.url, 'erin@example.org', 'lifecycle-pw-1');
  });

  it('uses HOPWATCH_ROOT_USER and HOPWATCH_ROOT_PASSWORD at first creation, not flagged temporary', async () => {
    const hw = await start({ HOPWATCH_ROOT_USER: 'boss', HOPWATCH_ROOT_PASSWORD: 'given-secret' });
    expect(hw.rootPassword).toBeUndefined();
    expect(hw.output()).not.toContain('given-secret');
    const cookie = await signIn(hw.url, 'boss', 'given-secret');
    const me = await (await fetch(`${hw.url}/api/Account/GetCurrentUser`, { headers: { cookie } })).json();
    expect(me.Claims).not.toContain('temppassword');
  });

  it('answers 403 with expired-trial: True once the trial has expired', async () => {
    const hw = await start({ HOPWATCH_ROOT_PASSWORD: 'pw', HOPWATCH_TRIAL_EXPIRES: '2001-01-01' });
    const r = await fetch(`${hw.url}/api/Account/Login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Username: 'admin', Password: 'pw', RememberMe: false }),
    });
    expect(r.status).toBe(403);
    expect(r.headers.get('expired-trial')).toBe('True');
  });

  it('refuses a bad configuration with a clear message', async () => {
    await expect(start({ HOPWATCH_DEPLOYMENT: '7' })).rejects.toThrow(/HOPWATCH_DEPLOYMENT must be one of 0, 1/);
  });
});
