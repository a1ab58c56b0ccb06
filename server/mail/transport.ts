// Sends mail through the configured SMTP server (nodemailer). The one door for every area
// that mails: alerts and account activation links (server/activation/). sendMail reads the settings each time
// (they change in Settings > General without a restart) and throws MailError with a message a
// person can act on; callers that must not lose a mail queue it (server/alerts/queue.ts).
import nodemailer from 'nodemailer';
import type { Store } from '../store/db.js';
import { loadMailSettings, type MailSettings } from './settings.js';
import { mailPasswordSeal } from './password.js';

export interface MailMessage {
  to: string | string[];
  subject: string;
  text: string;
  html?: string;
  /** Where the recipient's Reply goes (a support ticket's sender); one checked address. */
  replyTo?: string;
  /** Files sent along (a support ticket's error log). */
  attachments?: { filename: string; content: string; contentType: string }[];
}

export interface MailResult {
  /** The server's final answer, e.g. "250 2.0.0 Ok: queued as 4F2". */
  response: string;
  messageId: string;
}

export class MailError extends Error {}

/** Give up on a server that does not answer within this many ms (a queue retries later). */
export const MailTimeoutMs = 15_000;

export function transportOptions(s: MailSettings) {
  return {
    host: s.host,
    port: s.port,
    secure: s.security === 'tls',
    requireTLS: s.security === 'starttls',
    ignoreTLS: s.security === 'none',
    auth: s.user ? { user: s.user, pass: s.password } : undefined,
    tls: { rejectUnauthorized: !s.allowInvalidCertificate },
    connectionTimeout: MailTimeoutMs,
    greetingTimeout: MailTimeoutMs,
    socketTimeout: MailTimeoutMs,
  };
}

export async function sendMailWith(settings: MailSettings, m: MailMessage): Promise<MailResult> {
  if (!settings.host) throw new MailError('No SMTP server is set: Settings > General > Mail, or HOPWATCH_SMTP_HOST.');
  const transport = nodemailer.createTransport(transportOptions(settings));
  try {
    const info = await transport.sendMail({ from: settings.from, to: m.to, subject: m.subject, text: m.text, html: m.html, replyTo: m.replyTo, attachments: m.attachments });
    return { response: String(info.response ?? ''), messageId: String(info.messageId ?? '') };
  } catch (err) {
    const e = err as Error & { code?: string; response?: string };
    // nodemailer's messages name the server's answer; the password never appears in them.
    throw new MailError(`Mail to ${[m.to].flat().join(', ')} via ${settings.host}:${settings.port} failed: ${e.response ?? e.message}${e.code ? ` (${e.code})` : ''}`);
  } finally {
    transport.close();
  }
}

export type SendMail = (m: MailMessage) => Promise<MailResult>;

/** sendMail bound to a store's settings. */
export function mailer(store: Store, env: NodeJS.ProcessEnv = process.env): SendMail {
  return async (m) => {
    const seal = mailPasswordSeal(store);
    const { settings } = await store.read((q) => loadMailSettings(q, env, seal));
    return sendMailWith(settings, m);
  };
}
