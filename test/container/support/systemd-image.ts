// A Debian bookworm image that boots systemd as PID 1 (podman --systemd=always), built from the
// local Debian stand-in (support/images.ts) with apt through the host network: the machine an
// agent installer meets on a real host, for tests of install.sh / uninstall.sh under systemd.
// Cached across runs (skipped when present): it does not change with the code.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { debianImage, ensureBaseImages } from './images.js';
import type { Podman } from './podman.js';

export const systemdImage = 'localhost/hopwatch-systemd:bookworm';

export async function ensureSystemdImage(podman: Podman): Promise<string> {
  if (await podman.imageExists(systemdImage)) return systemdImage;
  await ensureBaseImages(podman);
  const dir = mkdtempSync(join(tmpdir(), 'hopwatch-systemd-image-'));
  try {
    // xdg-utils: install.sh registers the hopwatch:// handler with xdg-mime, as on a desktop.
    writeFileSync(
      join(dir, 'Containerfile'),
      `FROM ${debianImage}\n` +
        'RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ' +
        'systemd systemd-sysv dbus xdg-utils && rm -rf /var/lib/apt/lists/*\n' +
        'STOPSIGNAL SIGRTMIN+3\n' +
        'CMD ["/sbin/init"]\n',
    );
    await podman.must(['build', '--layers=false', '--network=host', '-t', systemdImage, dir], 15 * 60_000);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return systemdImage;
}
