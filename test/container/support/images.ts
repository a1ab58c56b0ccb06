// Local stand-ins for the Dockerfile's base images, since no image registry is reachable:
//   localhost/debian:bookworm       debootstrap minbase, trimmed like debian:bookworm-slim
//   localhost/hopwatch-base:node-<version>  the same plus the project's Node (the node-linux-<arch>
//                                   package npm ci installs: test/support/project-node.ts), its
//                                   headers and the host's npm, laid out like the official
//                                   node:24-bookworm-slim
// Both are cached across runs (skipped when present): they change only with the Node version.
// Then the appliance image itself, built from the working tree with the Dockerfile.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { requireProjectNode } from '../../support/project-node.js';
import { hostCaBundle, must, type Podman } from './podman.js';

const node = requireProjectNode();

export const debianImage = 'localhost/debian:bookworm';
export const nodeBaseImage = `localhost/hopwatch-base:node-${node.version}`;
export const repoRoot = resolve(import.meta.dirname, '../../..');

const mirror = 'http://deb.debian.org/debian';

export async function ensureBaseImages(podman: Podman): Promise<void> {
  if ((await podman.imageExists(debianImage)) && (await podman.imageExists(nodeBaseImage))) return;
  const work = mkdtempSync(join(tmpdir(), 'hopwatch-rootfs-'));
  const rootfs = join(work, 'rootfs');
  try {
    await must('debootstrap', ['--variant=minbase', 'bookworm', rootfs, mirror], process.env, 10 * 60_000);
    // What debian:bookworm-slim leaves out too: package caches, lists, docs, man pages, locales.
    await podman.shell(
      `cd '${rootfs}' && rm -rf var/cache/apt/*.bin var/cache/apt/archives/*.deb var/lib/apt/lists/* ` +
        `usr/share/doc/* usr/share/man/* usr/share/locale/*`,
    );
    await podman.shell(`tar -C '${rootfs}' -c . | podman import --change 'CMD ["bash"]' - ${debianImage}`);

    // Node as the official image has it: /usr/local/bin/node, npm under /usr/local/lib, the
    // headers under /usr/local/include/node (no nodejs.org here to download them from).
    const npmDir = (await must('bash', ['-c', 'dirname "$(dirname "$(readlink -f "$(command -v npm)")")"'])).trim();
    await podman.shell(
      `cd '${rootfs}' && mkdir -p usr/local/bin usr/local/lib/node_modules usr/local/include && ` +
        `cp '${node.binary}' usr/local/bin/node && cp -a '${npmDir}' usr/local/lib/node_modules/npm && ` +
        `ln -sf ../lib/node_modules/npm/bin/npm-cli.js usr/local/bin/npm && ` +
        `ln -sf ../lib/node_modules/npm/bin/npx-cli.js usr/local/bin/npx && ` +
        `cp -a '${node.include}' usr/local/include/node`,
    );
    await podman.shell(
      `tar -C '${rootfs}' -c . | podman import --change 'ENV npm_config_nodedir=/usr/local' ` +
        `--change 'CMD ["node"]' - ${nodeBaseImage}`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The build arguments of the appliance image here: the local bases and the host CA bundle. The
 * same for podman build (below) and podman-compose build (compose-up.test.ts), whose image is
 * then the tree's image too (keepAsTreeImage).
 */
export const applianceBuildArgs = [
  '--build-arg', `BASE_IMAGE=${nodeBaseImage}`,
  '--build-arg', `RUNTIME_IMAGE=${debianImage}`,
  '--build-arg', `npm_config_cafile=${hostCaBundle}`,
];

/**
 * Builds the appliance image from the repository's Dockerfile with the local bases, the host
 * network (npm registry) and the host CA bundle (TLS proxy). --layers=false: nothing cached
 * that would pile up across runs; --format docker keeps the HEALTHCHECK (OCI drops it).
 */
export async function buildApplianceImage(podman: Podman, tag: string): Promise<void> {
  await podman.must(
    [
      'build',
      '--format', 'docker',
      '--layers=false',
      '--network=host',
      '-v', `${hostCaBundle}:${hostCaBundle}:ro`,
      ...applianceBuildArgs,
      '-t', tag,
      '-f', join(repoRoot, 'Dockerfile'),
      repoRoot,
    ],
    20 * 60_000,
  );
}

/**
 * A hash of the build context the Dockerfile reads: every file git lists (tracked, or new and
 * not ignored) outside the top-level names .dockerignore leaves out, path and content. Two
 * trees with the same hash (and the same base image names) build the same image.
 */
export function contextHash(dir: string, excludedTopLevel: Set<string>, buildArgs: string[] = []): string {
  const listed = execFileSync('git', ['-C', dir, 'ls-files', '-co', '--exclude-standard', '-z'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const hash = createHash('sha256');
  for (const a of buildArgs) hash.update(`${a}\0`);
  for (const file of listed.split('\0').filter(Boolean).sort()) {
    if (excludedTopLevel.has(file.split('/')[0]) && !file.startsWith('docs/insights/')) continue;
    const path = join(dir, file);
    if (!existsSync(path)) continue; // deleted in the working tree, not yet in the index
    hash.update(`${file}\0`).update(readFileSync(path)).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

/** The top-level names .dockerignore leaves out of the appliance's build context. */
function dockerIgnoredTopLevel(): Set<string> {
  const lines = readFileSync(join(repoRoot, '.dockerignore'), 'utf8').split('\n').map((l) => l.trim());
  return new Set(lines.filter((l) => l && !l.startsWith('#') && !l.startsWith('!') && !/[*/]/.test(l)));
}

const treeRepository = 'localhost/hopwatch-tree';

/** The tag of this working tree's appliance image: the build context's hash and the local bases. */
function treeImageTag(): string {
  // The local base images are named by the Node version they carry: part of the hash too.
  return `${treeRepository}:${contextHash(repoRoot, dockerIgnoredTopLevel(), [nodeBaseImage, debianImage])}`;
}

/**
 * The appliance image of this working tree, shared by the container suites that only run it
 * (not the ones that test building it): tagged by the build context's hash, built once when
 * missing, and kept across runs like the base images; the tags of older trees are removed
 * when a new one is built, so one image at most stays. Returns the tag and the seconds the
 * build took (0: it was there already).
 */
export async function treeApplianceImage(podman: Podman): Promise<{ image: string; builtSeconds: number }> {
  const image = treeImageTag();
  if (await podman.imageExists(image)) return { image, builtSeconds: 0 };
  await removeOtherTags(podman, treeRepository, image);
  const t0 = Date.now();
  await buildApplianceImage(podman, image);
  return { image, builtSeconds: (Date.now() - t0) / 1000 };
}

/**
 * Keeps an image built from this tree by another command with the same Dockerfile, context,
 * bases and build arguments (compose-up.test.ts: podman-compose build, docs/deploy.md) as the
 * tree's image, so that the suites that only run it do not build the same image a second time
 * (about 4.5 minutes on the 2-core machine; docs/testing.md). Returns the tree's tag.
 */
export async function keepAsTreeImage(podman: Podman, built: string): Promise<string> {
  const image = treeImageTag();
  if (await podman.imageExists(image)) return image;
  await removeOtherTags(podman, treeRepository, image);
  await podman.must(['tag', built, image]);
  return image;
}

/** Removes every tag of `repository` but `keep` (the images of older trees or Containerfiles). */
export async function removeOtherTags(podman: Podman, repository: string, keep: string): Promise<void> {
  const listed = await podman.run(['images', '--format', '{{.Repository}}:{{.Tag}}', repository]);
  const others = listed.stdout.split('\n').map((l) => l.trim()).filter((l) => l.startsWith(`${repository}:`) && l !== keep);
  if (others.length > 0) await podman.run(['rmi', '-f', ...others]);
}
