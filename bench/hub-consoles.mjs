// A bench:hub child (bench/hub.mjs forks several): N consoles, each a real @microsoft/signalr
// client over WebSockets, as web/src/hub/connection.ts builds them: automatic reconnect at once,
// then every 2.5 s after a failed attempt for as long as it takes, and on reconnect the current user read again and the
// registrations made again. Each console holds its browser's session cookie (no sign-in here):
// a server restart is ridden out with the cookies the consoles already have.
// Asked over IPC by the parent: connect, measure on/off, report, stop.
//
// What a HostUpdated receipt records (bench:hub splits the delay with them): the round's sample
// time (the event's own argument), when the console's WebSocket emitted the message (the earliest
// point a client sees it: ws has read and unframed it, nothing of SignalR has run yet) and when
// the SignalR client had parsed it and called the console's handler. Times are epoch ms with the
// monotonic clock's fraction, comparable with the server's fan-out times (same host).
import { performance } from 'node:perf_hooks';
import { HubConnectionBuilder, HttpTransportType, LogLevel } from '@microsoft/signalr';
import WebSocket from 'ws';

const HubRetryMs = 2500; // web/src/hub/connection.ts
/** web/src/hub/connection.ts reconnectDelayMs: the first attempt at once, then every 2.5 s. */
const reconnectDelayMs = (previousRetryCount) => (previousRetryCount === 0 ? 0 : HubRetryMs);
/** Consoles starting at once in this process (a browser's start is spread the same way by people). */
const CONCURRENCY = Number(process.env.BENCH_CONNECT_CONCURRENCY ?? 100);

let consoles = [];
/** Flat: sample time, WebSocket message time, handler time, per HostUpdated received while measuring. */
let receipts = [];
const now = () => performance.timeOrigin + performance.now();
let measuring = false;
/** Failed connection attempts by what the client said (401, 429, 503, refused...). */
const failures = new Map();
const failed = (message) => {
  const status = /Status code '(\d+)'/.exec(message)?.[1] ?? /\b(4\d\d|5\d\d)\b/.exec(message)?.[1];
  const key = status ? `HTTP ${status}` : /fetch failed/.test(message) ? 'connection refused (server down)' : message.replace(/^Error: /, '').slice(0, 160);
  failures.set(key, (failures.get(key) ?? 0) + 1);
};
const logger = {
  log(level, message) {
    // Filtered by level first, as the console's own logger (LogLevel.Warning) is: the client
    // logs every frame received at Trace.
    if (level !== LogLevel.Information) return;
    // A failed reconnect attempt is logged at Information by the client.
    const attempt = /Reconnect attempt failed because of error '(.*)'/s.exec(message);
    if (attempt) failed(attempt[1]);
    // (the same failure is also logged at Error by the transport: counted once, here or at start)
  },
};

function build(url, cookie, sessionId) {
  const me = { c: undefined, live: false, liveAt: 0, heardAfterRestart: false, reconnected: false, messageAt: 0 };
  /**
   * The real ws WebSocket the client would pick itself, with one listener added before the
   * client's own: it notes when each message came out of the socket.
   */
  class TimedWebSocket extends WebSocket {
    constructor(...args) {
      super(...args);
      this.on('message', () => {
        me.messageAt = now();
      });
    }
  }
  const c = new HubConnectionBuilder()
    .withUrl(`${url}/mainHub`, { transport: HttpTransportType.WebSockets, headers: { cookie }, WebSocket: TimedWebSocket })
    .withAutomaticReconnect({ nextRetryDelayInMilliseconds: ({ previousRetryCount }) => reconnectDelayMs(previousRetryCount) })
    .configureLogging(logger)
    .build();
  me.c = c;
  c.on('HostUpdated', (_id, time) => {
    const handledAt = now();
    me.heardAfterRestart = true;
    if (measuring) receipts.push(Date.parse(time), me.messageAt, handledAt);
  });
  // UserUpdated, SessionsChanged... have console-wide handlers in the console (hubEvents.ts).
  for (const e of ['SummaryListChanged', 'SessionsChanged', 'UserUpdated', 'SettingsChanged', 'SummaryHostUpdated', 'RouteChanged']) c.on(e, () => {});
  c.onreconnecting(() => {
    me.live = false;
  });
  c.onreconnected(async () => {
    me.reconnected = true;
    // What the console does (connection.ts): read the user again, register again.
    try {
      await fetch(`${url}/api/Account/GetCurrentUser`, { headers: { cookie } }).then((r) => r.arrayBuffer());
      await c.invoke('RegisterForNewSamples', sessionId);
      me.live = true;
      me.liveAt = Date.now();
    } catch (e) {
      failed(String(e?.message ?? e));
    }
  });
  return me;
}

async function connect({ url, cookies, count, sessionId }) {
  const t0 = Date.now();
  consoles = Array.from({ length: count }, (_, i) => build(url, cookies[i % cookies.length], sessionId));
  let next = 0;
  const worker = async () => {
    while (next < consoles.length) {
      const me = consoles[next++];
      for (;;) {
        try {
          await me.c.start();
          await me.c.invoke('RegisterForNewSamples', sessionId);
          me.live = true;
          me.liveAt = Date.now();
          break;
        } catch (e) {
          failed(String(e?.message ?? e));
          await new Promise((r) => setTimeout(r, HubRetryMs));
        }
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { ms: Date.now() - t0 };
}

const live = () => consoles.filter((m) => m.live).length;

process.on('message', async (m) => {
  const answer = (body) => process.send({ id: m.id, ...body });
  try {
    if (m.op === 'connect') answer(await connect(m));
    else if (m.op === 'measure') {
      measuring = m.on;
      if (m.on) receipts = [];
      answer({});
    } else if (m.op === 'receipts') answer({ receipts });
    else if (m.op === 'restarting') {
      for (const me of consoles) me.heardAfterRestart = me.reconnected = false;
      failures.clear();
      answer({});
    } else if (m.op === 'status') {
      const lastLiveAt = Math.max(0, ...consoles.map((x) => x.liveAt));
      answer({ live: live(), reconnected: consoles.filter((x) => x.reconnected).length, heard: consoles.filter((x) => x.heardAfterRestart).length, lastLiveAt, failures: Object.fromEntries(failures) });
    } else if (m.op === 'stop') {
      await Promise.allSettled(consoles.map((x) => x.c.stop()));
      answer({});
      process.exit(0);
    }
  } catch (e) {
    answer({ error: String(e?.stack ?? e) });
  }
});
process.send({ ready: true });
