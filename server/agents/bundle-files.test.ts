// The bundle files /downloads/ serves (issue 45 item 6): a packed bundle as the build left it,
// or a stage of links packed when first asked, into the cache under the build's id.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentBundleFiles } from './bundle-files.js';

let root = '';
let built = '';
let cache = '';
const file = 'hopwatch-agent-linux-x64.tar.gz';

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'bundle-files-'));
  built = join(root, 'dist/agent-bundle');
  cache = join(root, 'data/agent-bundles');
  mkdirSync(built, { recursive: true });
  writeFileSync(join(built, 'build-id'), 'build-2\n');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A stage as agent/bundle/build.sh leaves it in the image: own files, links to the server's. */
function stage(): void {
  const shared = join(root, 'dist/engine');
  mkdirSync(join(shared, 'native'), { recursive: true });
  writeFileSync(join(shared, 'native/rawsock.node'), 'addon');
  writeFileSync(join(root, 'node'), '#!/bin/sh\necho v24\n');
  chmodSync(join(root, 'node'), 0o755);
  const s = join(built, 'hopwatch-agent-linux-x64/hopwatch-agent');
  mkdirSync(join(s, 'bin'), { recursive: true });
  mkdirSync(join(s, 'app/dist'), { recursive: true });
  writeFileSync(join(s, 'install.sh'), '#!/bin/sh\n');
  symlinkSync(join(root, 'node'), join(s, 'bin/node'));
  symlinkSync('../../../../../engine', join(s, 'app/dist/engine'));
}

const entries = (tgz: string) => execFileSync('tar', ['-tvzf', tgz], { encoding: 'utf8' }).trim().split('\n');

describe('AgentBundleFiles', () => {
  it('serves a bundle the build packed as it is, and none the build did not make', async () => {
    writeFileSync(join(built, file), 'packed');
    const files = new AgentBundleFiles(built, cache);
    expect(await files.path(file)).toBe(join(built, file));
    expect(await files.path('hopwatch-agent-linux-arm64.tar.gz')).toBeNull();
    expect(existsSync(cache)).toBe(false);
  });

  it('packs a stage when first asked, following its links, and serves the pack afterwards', async () => {
    stage();
    mkdirSync(join(cache, 'build-1'), { recursive: true });
    writeFileSync(join(cache, 'build-1', file), 'an older image');
    const files = new AgentBundleFiles(built, cache);
    const [a, b] = await Promise.all([files.path(file), files.path(file)]);
    expect(a).toBe(join(cache, 'build-2', file));
    expect(b).toBe(a);
    const list = entries(a!);
    // Regular files (the links' targets), no link left, owned by root.
    expect(list.find((l) => l.endsWith('hopwatch-agent/bin/node'))).toMatch(/^-rwxr-xr-x root\/root|^-rwxr-xr-x 0\/0/);
    expect(list.find((l) => l.endsWith('hopwatch-agent/app/dist/engine/native/rawsock.node'))).toMatch(/^-/);
    expect(list.some((l) => l.startsWith('l'))).toBe(false);
    const out = mkdtempSync(join(root, 'x-'));
    execFileSync('tar', ['-C', out, '-xzf', a!]);
    expect(execFileSync(join(out, 'hopwatch-agent/bin/node'), { encoding: 'utf8' })).toBe('v24\n');
    expect(readFileSync(join(out, 'hopwatch-agent/app/dist/engine/native/rawsock.node'), 'utf8')).toBe('addon');
    // The pack of the older build is gone; a second server process finds this one packed.
    expect(existsSync(join(cache, 'build-1'))).toBe(false);
    const mtime = statSync(a!).mtimeMs;
    expect(await new AgentBundleFiles(built, cache).path(file)).toBe(a);
    expect(statSync(a!).mtimeMs).toBe(mtime);
  });

  it('says why when a stage cannot be packed, and tries again on the next request', async () => {
    stage();
    rmSync(join(root, 'node'));
    const files = new AgentBundleFiles(built, cache);
    await expect(files.path(file)).rejects.toThrow(/tar exited/);
    expect(existsSync(join(cache, 'build-2', file))).toBe(false);
    writeFileSync(join(root, 'node'), 'again');
    expect(await files.path(file)).toBe(join(cache, 'build-2', file));
  });
});

describe('AgentBundleFiles with a Node kept compressed beside the stage (arm64 in the image)', () => {
  it("packs it as the bundle's bin/node, executable, and leaves no copy of it behind", async () => {
    stage();
    const name = 'hopwatch-agent-linux-arm64.tar.gz';
    const s = join(built, 'hopwatch-agent-linux-arm64');
    execFileSync('cp', ['-a', join(built, 'hopwatch-agent-linux-x64'), s]);
    rmSync(join(s, 'hopwatch-agent/bin/node'));
    writeFileSync(join(s, 'node.br'), brotliCompressSync('#!/bin/sh\necho arm64\n'));
    // Under the server's own umask (server/main.ts: 077), as in the appliance image.
    const umask = process.umask(0o077);
    let packed: string | null;
    try {
      packed = await new AgentBundleFiles(built, cache).path(name);
    } finally {
      process.umask(umask);
    }
    expect(packed).toBe(join(cache, 'build-2', name));
    const list = entries(packed!);
    expect(list.filter((l) => l.endsWith('hopwatch-agent/bin/node'))).toHaveLength(1);
    expect(list.find((l) => l.endsWith('hopwatch-agent/bin/node'))).toMatch(/^-rwxr-xr-x /);
    const out = mkdtempSync(join(root, 'x-'));
    execFileSync('tar', ['-C', out, '-xzf', packed!]);
    expect(execFileSync(join(out, 'hopwatch-agent/bin/node'), { encoding: 'utf8' })).toBe('arm64\n');
    expect(execFileSync('ls', [join(cache, 'build-2')], { encoding: 'utf8' }).trim()).toBe(name);
  });
});
