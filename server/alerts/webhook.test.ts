// The webhook action against real HTTP receivers on loopback (issue 39 items 2 and 6): the
// address policy refuses every spelling of loopback before anything is sent, an operator's
// HOPWATCH_WEBHOOK_ALLOW opens it, the answer kept is the status alone (never the body, never a
// system error text), and a receiver streaming an endless answer is cut off, not read whole.
import { createServer, type Server, type ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import type { WebhookActionConfig } from '../contract/alerts.js';
import { ActionFailed, runAction, type ActionContext, type ActionDeps } from './actions.js';
import type { NotificationVariables } from './templates.js';

const variables: NotificationVariables = {
  alert: 'Test alert', event: 'start', condition: 'loss', host: '127.0.0.1', hop: '0', loss: '30', latency: '1', jitter: '0', mos: '4.1', time: 'now', agent: 'Local Machine', link: '',
};
const ctx: ActionContext = { accountId: 1, alertId: 1, createdBy: 1, sessionId: 1, time: Date.now(), variables };

/** What the webhook action needs of its deps: the configuration (the policy's flavour and allow list). */
const depsWith = (env: Record<string, string>) => ({ config: loadConfig({ HOPWATCH_DATA_DIR: '/tmp/hopwatch-webhook-test', ...env }) }) as unknown as ActionDeps;
const call = (env: Record<string, string>, Url: string, Method: WebhookActionConfig['Method'] = 'POST') =>
  runAction(depsWith(env), 'webhook', { Method, Url, Format: 'slack' } as WebhookActionConfig, ctx);
/** The ActionFailed a call ends with (fails the test when it succeeds). */
const failure = async (p: Promise<string>): Promise<ActionFailed> => {
  const answer = await p.then((a) => `answered ${a}`, (e: unknown) => e);
  expect(answer).toBeInstanceOf(ActionFailed);
  return answer as ActionFailed;
};

interface Receiver {
  port: number;
  /** Requests received, by the address they came to. */
  hits: string[];
  answer: (res: ServerResponse) => void;
  close(): Promise<void>;
}

/** One HTTP receiver listening on 127.0.0.1 and ::1 at the same port. */
async function startReceiver(): Promise<Receiver> {
  const receiver = { hits: [] as string[], answer: (res: ServerResponse) => void res.writeHead(200).end('ok') } as Receiver;
  const servers: Server[] = [];
  for (const host of ['127.0.0.1', '::1']) {
    const s = createServer((req, res) => {
      receiver.hits.push(`${host} ${req.method} ${req.url}`);
      req.resume();
      req.on('end', () => receiver.answer(res));
    });
    await new Promise<void>((ok, fail) => s.once('error', fail).listen(receiver.port ?? 0, host, () => ok()));
    receiver.port ??= (s.address() as { port: number }).port;
    servers.push(s);
  }
  receiver.close = async () => {
    for (const s of servers) {
      s.closeAllConnections();
      await new Promise((ok) => s.close(ok));
    }
  };
  return receiver;
}

let rx: Receiver;
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(() => rx.close());
afterEach(() => {
  rx.hits.length = 0;
  rx.answer = (res) => res.writeHead(200).end('ok');
});

const loopbackSpellings = (port: number) => [
  `http://127.0.0.1:${port}/hook`,
  `http://localhost:${port}/hook`,
  `http://2130706433:${port}/hook`,
  `http://0x7f.1:${port}/hook`,
  `http://127.1:${port}/hook`,
  `http://[::ffff:127.0.0.1]:${port}/hook`,
  `http://[::1]:${port}/hook`,
];

describe('the webhook address policy (issue 39 item 2)', () => {
  it('refuses every spelling of loopback without HOPWATCH_WEBHOOK_ALLOW: nothing reaches the receiver', async () => {
    for (const url of loopbackSpellings(rx.port)) {
      const err = await failure(call({}, url));
      expect(err.message, url).toMatch(/webhook address \S+ is refused: loopback; set HOPWATCH_WEBHOOK_ALLOW to allow it/);
      expect(err.permanent, url).toBe(true);
    }
    // 0.0.0.0 connects to the machine itself on Linux.
    expect((await failure(call({}, `http://0.0.0.0:${rx.port}/hook`))).message).toMatch(/is refused: unspecified/);
    expect(rx.hits).toEqual([]);
  });

  it('calls them when the operator allows loopback, as tests and LAN setups do', async () => {
    const allow = { HOPWATCH_WEBHOOK_ALLOW: '127.0.0.0/8, ::1/128' };
    for (const url of loopbackSpellings(rx.port)) expect(await call(allow, url), url).toBe('200 OK');
    expect(rx.hits).toHaveLength(loopbackSpellings(rx.port).length);
    expect(rx.hits.filter((h) => h.startsWith('::1'))).toHaveLength(1);
    // What the list does not name stays refused.
    expect((await failure(call(allow, `http://0.0.0.0:${rx.port}/hook`))).message).toMatch(/refused: unspecified/);
  });

  it('refuses link-local (cloud metadata) and, in the hosted flavour, private addresses before connecting', async () => {
    expect((await failure(call({}, 'http://169.254.169.254/latest/meta-data/'))).message).toMatch(/webhook address 169\.254\.169\.254 is refused: link-local/);
    expect((await failure(call({}, 'http://[fe80::1]/'))).message).toMatch(/refused: link-local/);
    const hosted = { HOPWATCH_DEPLOYMENT: '1' };
    expect((await failure(call(hosted, 'http://10.255.255.1:9/hook'))).message).toMatch(/webhook address 10\.255\.255\.1 is refused: private/);
    expect((await failure(call(hosted, 'http://[::ffff:192.168.1.1]/'))).message).toMatch(/refused: private/);
  });

  it('keeps the status and the standard reason, never the body or the sender\'s reason text', async () => {
    const allow = { HOPWATCH_WEBHOOK_ALLOW: '127.0.0.0/8' };
    rx.answer = (res) => res.writeHead(500, 'db at 10.1.2.3:5432 down').end('stack trace with internal secrets');
    const err = await failure(call(allow, `http://127.0.0.1:${rx.port}/hook`));
    expect(err.message).toBe('500 Internal Server Error');
    expect(err.permanent).toBe(false);
    rx.answer = (res) => res.writeHead(404).end('no such hook here');
    const gone = await failure(call(allow, `http://127.0.0.1:${rx.port}/gone`));
    expect(gone.message).toBe('404 Not Found');
    expect(gone.permanent).toBe(true);
  });

  it('says only the class of a connection failure', async () => {
    const closed = createServer();
    await new Promise<void>((ok) => closed.listen(0, '127.0.0.1', () => ok()));
    const port = (closed.address() as { port: number }).port;
    await new Promise((ok) => closed.close(ok));
    const err = await failure(call({ HOPWATCH_WEBHOOK_ALLOW: '127.0.0.1' }, `http://127.0.0.1:${port}/hook?token=secret`));
    expect(err.message).toBe(`POST http://127.0.0.1:${port}/hook failed: connection refused`);
  });
});

describe('webhook answers (issue 39 item 6)', () => {
  it('an answer streaming 100 MB is not read: the delivery completes and the connection is closed early', async () => {
    const total = 100 * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, 'x');
    let written = 0;
    const closed = new Promise<boolean>((ok) => {
      rx.answer = (res) => {
        res.writeHead(200, { 'content-length': String(total) });
        const more = () => {
          while (written < total && !res.destroyed) {
            written += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', more);
          }
          if (written >= total) res.end();
        };
        // true: the client went away before the whole answer was written.
        res.on('close', () => ok(written < total));
        more();
      };
    });
    const rssBefore = process.memoryUsage().rss;
    const answer = await call({ HOPWATCH_WEBHOOK_ALLOW: '127.0.0.0/8' }, `http://127.0.0.1:${rx.port}/big`);
    expect(await closed).toBe(true);
    expect(written).toBeLessThan(total / 4);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(100 * 1024 * 1024);
    expect(answer).toBe('200 OK');
  });
});
