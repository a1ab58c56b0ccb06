// A real SMTP server on loopback that offers AUTH and records what it received: the logins
// ("user:password") and the recipients. Where the appliance's SMTP password goes is what the
// mail-settings suites check (test/alerts/support.ts's sink disables AUTH).
import { SMTPServer } from 'smtp-server';

export interface AuthSmtp {
  port: number;
  logins: string[];
  recipients: string[];
  close(): Promise<void>;
}

export async function startAuthSmtp(): Promise<AuthSmtp> {
  const logins: string[] = [];
  const recipients: string[] = [];
  const server = new SMTPServer({
    secure: false,
    allowInsecureAuth: true,
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, done) {
      logins.push(`${auth.username}:${auth.password}`);
      done(null, { user: auth.username });
    },
    onData(stream, session, done) {
      recipients.push(...session.envelope.rcptTo.map((r) => r.address));
      stream.on('data', () => undefined);
      stream.on('end', () => done());
    },
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => ok());
  });
  const port = (server.server.address() as { port: number }).port;
  return { port, logins, recipients, close: () => new Promise<void>((ok) => server.close(() => ok())) };
}
