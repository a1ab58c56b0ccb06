// A web user's e-mail address (issue 39 item 13): exactly one mailbox, `local@domain`, as
// RFC 5321 allows it in a RCPT TO. Every door that sets one (user creation, an account's first
// user, activation, support) checks it here, because a mailer reads a text as a list:
// nodemailer sent "x@example.org, evil@evil.example" to both, and a CR LF carried a Bcc.
import { badRequest } from '../http/errors.js';

/** RFC 5321 section 4.5.3.1: 64 for the local part, 254 for the whole path. */
export const EmailAddressMaxLength = 254;
const LocalPartMaxLength = 64;

// atext of RFC 5322 (letters, digits and !#$%&'*+/=?^_`{|}~-) plus non-ASCII letters and
// digits (SMTPUTF8), dot-separated; no quoted local parts: no comma, space, quote, bracket,
// angle or control character can appear.
const atom = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~\\-\\p{L}\\p{N}]+";
const label = '[A-Za-z0-9\\p{L}\\p{N}](?:[A-Za-z0-9\\-\\p{L}\\p{N}]{0,61}[A-Za-z0-9\\p{L}\\p{N}])?';
/** One address: a dot-atom local part, @, a domain of two or more labels. */
const EmailAddressPattern = `^${atom}(?:\\.${atom})*@${label}(?:\\.${label})+$`;
const pattern = new RegExp(EmailAddressPattern, 'u');

/**
 * The JSON schema of an e-mail address argument (routes' bodies and queries): its bounds. The
 * content is checked by validEmailAddress in the service each door calls, whose messages
 * say what is wrong (a schema pattern would answer with the pattern's text).
 */
export const emailAddressArg = { type: 'string', maxLength: 256 } as const;

/** Why `text` is not one valid e-mail address, or undefined when it is one. */
export function emailAddressProblem(text: string): string | undefined {
  if (!text) return 'An e-mail address is required.';
  if (text.length > EmailAddressMaxLength) return `An e-mail address has at most ${EmailAddressMaxLength} characters.`;
  if (/[,;]/.test(text)) return 'Give one e-mail address only (no commas or semicolons).';
  if (/[\s\p{C}]/u.test(text)) return 'An e-mail address has no spaces, line breaks or control characters.';
  const at = text.split('@').length - 1;
  if (at !== 1) return 'An e-mail address has exactly one @ (name@example.org).';
  if (text.indexOf('@') > LocalPartMaxLength) return `The part before the @ has at most ${LocalPartMaxLength} characters.`;
  if (!pattern.test(text)) return `"${text}" is not a valid e-mail address (name@example.org).`;
  return undefined;
}

/**
 * The address in `text` (surrounding spaces dropped, as a form field has them), or a 400
 * naming what is wrong.
 */
export function validEmailAddress(text: string | undefined): string {
  const address = (text ?? '').trim();
  const problem = emailAddressProblem(address);
  if (problem) throw badRequest(problem);
  return address;
}
