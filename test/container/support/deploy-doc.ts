// The commands docs/deploy.md gives a sysadmin, read from the document itself, so that the
// container suite runs what the document says (and fails when the document goes wrong).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { repoRoot } from './images.js';

export function deployDoc(): string {
  return readFileSync(resolve(repoRoot, 'docs/deploy.md'), 'utf8');
}

/** The variables the document sets in front of `podman-compose up -d` (none: {}). */
export function deployDocPodmanComposeEnv(doc = deployDoc()): Record<string, string> {
  const m = /((?:[A-Z_][A-Z0-9_]*=\S+\s+)*)podman-compose up -d/.exec(doc);
  if (!m) throw new Error('docs/deploy.md names no `podman-compose up -d` command');
  return Object.fromEntries(
    m[1]
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map((a) => [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]),
  );
}

/**
 * The backup block (the first fenced block after "To back up"), written for Docker, turned into
 * the other engine's words as the document says: `docker compose` -> compose, `docker` ->
 * engine; and its helper image replaced by a local one (no registry here).
 */
export function deployDocBackupScript(opts: { compose: string; engine: string; image: string }, doc = deployDoc()): string {
  const at = doc.indexOf('To back up');
  const block = at < 0 ? null : /```sh\n([\s\S]*?)```/.exec(doc.slice(at));
  if (!block) throw new Error('docs/deploy.md has no backup commands (a sh block after "To back up")');
  return block[1]
    .replaceAll('docker compose', opts.compose)
    // The command word only: label names such as com.docker.compose.service stay.
    .replace(/(^|\$\(|\s)docker /gm, `$1${opts.engine} `)
    .replaceAll('debian:bookworm-slim', opts.image);
}
