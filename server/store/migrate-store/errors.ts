// migrate-store's failures: "{what} failed: {why}" (docs/deploy.md), never with the URL's password.

export class MigrateError extends Error {
  constructor(
    readonly what: string,
    readonly why: string,
  ) {
    super(`${what} failed: ${why}`);
  }
}

/** The message of any failure as the operator reads it, the password of `url` removed wherever it shows. */
export function failureText(err: unknown, url: string | undefined, what = 'migrate-store'): string {
  const text = err instanceof MigrateError ? err.message : `${what} failed: ${(err as Error)?.message ?? String(err)}`;
  return redact(text, url);
}

/** The text without the URL's password (as written and decoded). */
export function redact(text: string, url: string | undefined): string {
  if (!url) return text;
  let password = '';
  try {
    password = new URL(url).password;
  } catch {
    return text;
  }
  if (!password) return text;
  let out = text;
  for (const p of new Set([password, decodeURIComponent(password)])) if (p) out = out.split(p).join('***');
  return out;
}
