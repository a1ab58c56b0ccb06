// /mainHub sign-in: the cookie in every mode, a bearer token (access_token) in cloud mode only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpTransportType, HubConnectionBuilder, LogLevel } from '@microsoft/signalr';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';

const tokenOf = (cookie: string) => /hopwatch_session=([^;]+)/.exec(cookie)![1];
const viaToken = (url: string, token: string, transport: HttpTransportType) =>
  new HubConnectionBuilder()
    .withUrl(`${url}/mainHub`, { transport, accessTokenFactory: () => token })
    .configureLogging(LogLevel.None)
    .build();

describe('/mainHub bearer tokens', () => {
  let cloud: Appliance;
  let selfHosted: Appliance;
  beforeAll(async () => {
    [cloud, selfHosted] = await Promise.all([
      startAppliance({ env: { HOPWATCH_DEPLOYMENT: '1', HOPWATCH_ROOT_PASSWORD: 'pw' } }),
      startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: 'pw' } }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([cloud?.dispose(), selfHosted?.dispose()]);
  });

  for (const [name, transport] of [['WebSockets', HttpTransportType.WebSockets], ['LongPolling', HttpTransportType.LongPolling]] as const) {
    it(`accepts the session token as access_token in cloud mode (${name})`, async () => {
      const token = tokenOf(await signIn(cloud.url, 'admin', 'pw'));
      const c = viaToken(cloud.url, token, transport);
      await c.start();
      try {
        expect(await c.invoke('GetIsMagneto')).toBe(true);
      } finally {
        await c.stop();
      }
      await expect(viaToken(cloud.url, 'forged', transport).start()).rejects.toThrow(/401/);
    });
  }

  it('refuses a bearer token in self-hosted mode, where only the cookie counts', async () => {
    const token = tokenOf(await signIn(selfHosted.url, 'admin', 'pw'));
    await expect(viaToken(selfHosted.url, token, HttpTransportType.WebSockets).start()).rejects.toThrow(/401/);
  });
});
