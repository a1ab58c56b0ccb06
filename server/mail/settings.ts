// SMTP settings of the appliance: what Settings > General stores (table mail_settings, one
// row per name), each falling back to a HOPWATCH_SMTP_* variable, then to a default. Stored
// values win so an administrator can change them without a restart; the variables let a
// compose file or chart configure mail before anyone signs in (docs/alerts.md, "Mail").
import type { Queryable } from '../store/db.js';
import { badRequest } from '../http/errors.js';
import { ClearPasswordRow, SealedPasswordRow, storeMailPassword, type MailPasswordSeal } from './password.js';

export type SmtpSecurity = 'none' | 'starttls' | 'tls';

export interface MailSettings {
  host: string;
  port: number;
  /** none: plain; starttls: upgrade required; tls: TLS from the first byte (port 465). */
  security: SmtpSecurity;
  user: string;
  /**
   * SMTP AUTH needs it back, so it is stored sealed (server/mail/password.ts), opened here.
   * Never logged, never answered to anyone (HasPassword instead).
   */
  password: string;
  from: string;
  /** Accept a certificate no trusted authority signed (a self-signed relay on the LAN). */
  allowInvalidCertificate: boolean;
}

/** What GET answers and PUT takes (the password is write-only). */
export interface MailSettingsDto {
  Host: string;
  Port: number;
  Security: SmtpSecurity;
  User: string;
  HasPassword: boolean;
  From: string;
  AllowInvalidCertificate: boolean;
  /** Where each value came from, so the editor can say a variable sets it. */
  FromEnvironment: string[];
}

export interface MailSettingsInput {
  Host?: string;
  Port?: number;
  Security?: SmtpSecurity;
  User?: string;
  /**
   * Omitted or empty: keep the stored one (a form shows no password, so it sends none unless
   * one is typed); anything else replaces it. ClearPassword removes it.
   */
  Password?: string;
  /** Remove the stored password (also over HOPWATCH_SMTP_PASSWORD); not together with a Password. */
  ClearPassword?: boolean;
  From?: string;
  AllowInvalidCertificate?: boolean;
}

const Names = {
  host: ['Host', 'HOPWATCH_SMTP_HOST', ''],
  port: ['Port', 'HOPWATCH_SMTP_PORT', '587'],
  security: ['Security', 'HOPWATCH_SMTP_SECURITY', 'starttls'],
  user: ['User', 'HOPWATCH_SMTP_USER', ''],
  password: ['Password', 'HOPWATCH_SMTP_PASSWORD', ''],
  from: ['From', 'HOPWATCH_SMTP_FROM', 'hopwatch@localhost'],
  allowInvalidCertificate: ['AllowInvalidCertificate', 'HOPWATCH_SMTP_ALLOW_INVALID_CERT', 'false'],
} as const satisfies Record<keyof MailSettings, readonly [string, string, string]>;

const securities: readonly SmtpSecurity[] = ['none', 'starttls', 'tls'];

function parse(raw: Record<keyof MailSettings, string>): MailSettings {
  const port = Number(raw.port);
  return {
    host: raw.host,
    port: Number.isInteger(port) && port > 0 && port < 65536 ? port : 587,
    security: securities.includes(raw.security as SmtpSecurity) ? (raw.security as SmtpSecurity) : 'starttls',
    user: raw.user,
    password: raw.password,
    from: raw.from,
    allowInvalidCertificate: raw.allowInvalidCertificate === 'true' || raw.allowInvalidCertificate === '1',
  };
}

/**
 * The settings in force. `seal` opens a stored password: callers that mail (or answer
 * HasPassword) pass it; without it the password reads as ''.
 */
export async function loadMailSettings(
  q: Queryable,
  env: NodeJS.ProcessEnv = process.env,
  seal?: Pick<MailPasswordSeal, 'open'>,
): Promise<{ settings: MailSettings; fromEnvironment: string[] }> {
  const rows = await q.all<{ name: string; value: string }>('SELECT name, value FROM mail_settings');
  const stored = new Map(rows.map((r) => [r.name, r.value]));
  // The stored password is the sealed row, read as the Password value; a clear Password row of an
  // older version counts only until it is sealed at start (sealClearMailPassword).
  const sealed = stored.get(SealedPasswordRow);
  if (sealed !== undefined) stored.set(ClearPasswordRow, sealed === '' || !seal ? '' : seal.open(sealed));
  const fromEnvironment: string[] = [];
  const raw = {} as Record<keyof MailSettings, string>;
  for (const [key, [name, variable, fallback]] of Object.entries(Names) as [keyof MailSettings, readonly [string, string, string]][]) {
    const s = stored.get(name);
    if (s !== undefined) raw[key] = s;
    else if (env[variable] !== undefined && env[variable] !== '') {
      raw[key] = env[variable]!;
      fromEnvironment.push(name);
    } else raw[key] = fallback;
  }
  return { settings: parse(raw), fromEnvironment };
}

export function toDto(s: MailSettings, fromEnvironment: string[]): MailSettingsDto {
  return {
    Host: s.host,
    Port: s.port,
    Security: s.security,
    User: s.user,
    HasPassword: s.password !== '',
    From: s.from,
    AllowInvalidCertificate: s.allowInvalidCertificate,
    FromEnvironment: fromEnvironment,
  };
}

const mailbox = /^[^\s@<>]+@[^\s@<>]+$/;

export async function storeMailSettings(q: Queryable, input: MailSettingsInput, seal: MailPasswordSeal): Promise<void> {
  if (input.ClearPassword && input.Password) throw badRequest('Give a new Password or ClearPassword, not both.');
  if (input.From !== undefined && input.From !== '' && !mailbox.test(input.From)) throw badRequest('From must be an e-mail address such as hopwatch@example.org.');
  if (input.Host !== undefined && /[\s/]/.test(input.Host)) throw badRequest('Host must be a host name or address, without spaces or slashes.');
  const values: [string, string | undefined][] = [
    ['Host', input.Host],
    ['Port', input.Port === undefined ? undefined : String(input.Port)],
    ['Security', input.Security],
    ['User', input.User],
    ['From', input.From],
    ['AllowInvalidCertificate', input.AllowInvalidCertificate === undefined ? undefined : String(input.AllowInvalidCertificate)],
  ];
  for (const [name, value] of values) {
    if (value === undefined) continue;
    await q.run('INSERT INTO mail_settings VALUES ($1, $2, $3) ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at', [name, value, Date.now()]);
  }
  if (input.Password) await storeMailPassword(q, seal, input.Password);
  else if (input.ClearPassword) await storeMailPassword(q, seal, '');
}
