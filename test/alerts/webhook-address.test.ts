// "Send test" of a webhook on an appliance without HOPWATCH_WEBHOOK_ALLOW (issue 39 item 2): a
// user with AlertsManagement cannot make the appliance call its own loopback services (in any
// spelling) or the cloud metadata address, and learns nothing from them: the answer names the
// refusal, the receiver on loopback gets no request. Delivery to an allowed receiver, with the
// status alone as the answer, is in delivery.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { startHttpSink, type HttpSink } from './support.js';

let hw: Appliance;
let cookie: string;
let hook: HttpSink;

const testAction = async (Url: string) => {
  const r = await fetch(`${hw.url}/api/alerts/test-action`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ Kind: 'webhook', Config: { Method: 'GET', Url, Format: 'custom', Headers: { 'X-Probe': '1' } } }),
  });
  expect(r.status).toBe(200);
  return (await r.json()) as { Ok: boolean; Answer: string };
};

beforeAll(async () => {
  hook = await startHttpSink();
  hw = await startAppliance({ env: { HOPWATCH_ENGINE: 'simulated', HOPWATCH_ROOT_PASSWORD: 'ssrf-root-pw', HOPWATCH_WEBHOOK_ALLOW: '' } });
  cookie = await signIn(hw.url, 'admin', 'ssrf-root-pw');
});
afterAll(async () => {
  await hw?.dispose();
  await hook?.close();
});

describe('webhook addresses without HOPWATCH_WEBHOOK_ALLOW', () => {
  it('refuses every spelling of loopback, and the appliance itself: nothing reaches the receiver', async () => {
    const port = new URL(hook.url).port;
    const spellings = ['127.0.0.1', 'localhost', '2130706433', '0x7f.1', '127.1', '[::ffff:127.0.0.1]', '[::1]'];
    for (const host of spellings) {
      const answer = await testAction(`http://${host}:${port}/internal?x=1`);
      expect(answer.Ok, host).toBe(false);
      expect(answer.Answer, host).toMatch(/^webhook address \S+ is refused: loopback; set HOPWATCH_WEBHOOK_ALLOW to allow it$/);
    }
    expect((await testAction(`http://0.0.0.0:${port}/`)).Answer).toMatch(/is refused: unspecified/);
    // The appliance's own port by its own address: the same refusal.
    expect((await testAction(`${hw.url}/api/alerts`)).Answer).toMatch(/is refused: loopback/);
    expect(hook.requests).toEqual([]);
  });

  it('refuses the link-local range, where the cloud metadata service answers, before connecting', async () => {
    const answer = await testAction('http://169.254.169.254/latest/meta-data/iam/');
    expect(answer).toEqual({ Ok: false, Answer: 'webhook address 169.254.169.254 is refused: link-local; set HOPWATCH_WEBHOOK_ALLOW to allow it' });
  });
});
