// docs/deploy.md against the product it describes (issue 40 item 8): the root password text
// says what the server and the console do, the podman-compose command keeps the image's
// HEALTHCHECK, the backup commands find the volume under either compose tool, and measured
// figures carry their date. compose-up.test.ts runs the documented commands themselves.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Claim } from '../../server/contract/account.js';
import { mustReplacePassword, type Principal } from '../../server/account/principal.js';
import { repoRoot } from './support/images.js';
import { deployDoc, deployDocBackupScript, deployDocPodmanComposeEnv } from './support/deploy-doc.js';

const doc = deployDoc();

/** The text of the "## title" section of docs/deploy.md. */
function section(title: string): string {
  const at = doc.indexOf(`\n## ${title}\n`);
  expect(at, `docs/deploy.md has a section "${title}"`).toBeGreaterThan(0);
  const next = doc.indexOf('\n## ', at + 1);
  return doc.slice(at, next < 0 ? undefined : next).replace(/\s+/g, ' ');
}

describe('docs/deploy.md', () => {
  it("says what the server and the console do with root's generated password: a warning, no forced change", () => {
    const root: Principal = { userId: 1, accountId: 1, username: 'admin', isRoot: true, claims: [Claim.TempPassword] };
    // The server lets root with a generated password use every screen (docs/decisions.md) ...
    expect(mustReplacePassword(root)).toBe(false);
    const text = section('The root password');
    // ... so the document must not say root has to change it first,
    expect(text).not.toMatch(/\bmust (then )?(choose|change|replace)/i);
    // and it names the warning the console shows, in the console's words.
    const banner = /className="temp-password-warning"[\s\S]*?<span>([^<]+)<\/span>/.exec(readFileSync(resolve(repoRoot, 'web/src/shell/UserGroup.tsx'), 'utf8'))?.[1];
    expect(banner).toBeDefined();
    expect(text).toContain(`"${banner}"`);
  });

  it('runs podman-compose so that the image keeps its HEALTHCHECK (docker format)', () => {
    expect(deployDocPodmanComposeEnv()).toEqual({ BUILDAH_FORMAT: 'docker' });
    expect(readFileSync(resolve(repoRoot, 'compose.yaml'), 'utf8')).toContain('BUILDAH_FORMAT=docker podman-compose up -d');
  });

  it("backs up without naming the volume, whose name differs between the compose tools", () => {
    const script = deployDocBackupScript({ compose: 'docker compose', engine: 'docker', image: 'debian:bookworm-slim' });
    expect(script).not.toMatch(/_hopwatch-data/);
    expect(script).toContain('--filter label=com.docker.compose.service=hopwatch');
    expect(script).toContain('--volumes-from');
  });

  it('states the measured image size with the date of the measurement', () => {
    // A measured figure is written in bold; the goal ("300 MB or less") is not a measurement.
    const figures = [...doc.matchAll(/\*\*(\d+(?:\.\d+)?) MB\*\*(?: on (\d{4}-\d{2}-\d{2}))?/g)];
    expect(figures.length).toBeGreaterThan(0);
    for (const f of figures) expect(f[2], `the date of the figure ${f[0]}`).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});
