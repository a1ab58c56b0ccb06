// Real receivers for alert tests: an SMTP server (smtp-server) and an HTTP server on
// loopback that keep what they got, and a wait helper.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export interface MailSink {
  port: number;
  mails: ReceivedMail[];
  close(): Promise<void>;
}

/** An SMTP server on 127.0.0.1 (no TLS, no auth) that keeps every mail. */
export async function startMailSink(port = 0, mails: ReceivedMail[] = []): Promise<MailSink> {
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({ from: String(session.envelope.mailFrom && session.envelope.mailFrom.address), to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => ok());
  });
  const actual = (server.server.address() as { port: number }).port;
  return { port: actual, mails, close: () => new Promise<void>((ok) => server.close(() => ok())) };
}

/**
 * What an operator sets for webhooks to receivers on this machine: the address policy refuses
 * loopback otherwise (server/http/outbound-address.ts; docs/alerts.md "Webhook addresses").
 */
export const LoopbackWebhooks = { HOPWATCH_WEBHOOK_ALLOW: '127.0.0.0/8,::1/128' };

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface HttpSink {
  url: string;
  requests: ReceivedRequest[];
  /** The status the sink answers (default 200). */
  status: number;
  /** Awaited before each answer (what the store held while the request was in flight). */
  onRequest?: () => Promise<void>;
  close(): Promise<void>;
}

export async function startHttpSink(): Promise<HttpSink> {
  const requests: ReceivedRequest[] = [];
  const sink = { requests, status: 200 } as HttpSink;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      await sink.onRequest?.().catch(() => undefined);
      requests.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(sink.status, { 'content-type': 'text/plain' }).end(sink.status < 300 ? 'ok' : 'nope');
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  sink.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  sink.close = () => new Promise<void>((ok) => server.close(() => ok()));
  return sink;
}

/** A TCP server that answers every connection with garbage instead of SMTP. */
export async function startGarbageServer(): Promise<{ port: number; close(): Promise<void> }> {
  const server: TcpServer = createTcpServer((s) => {
    s.on('error', () => undefined);
    s.write('this is not SMTP \u0000\u00ff\r\n');
    s.on('data', () => s.write('?? garbage ??\r\n'));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  return { port: (server.address() as { port: number }).port, close: () => new Promise<void>((ok) => server.close(() => ok())) };
}

export async function waitFor<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((ok) => setTimeout(ok, 200));
  }
}

export const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));
