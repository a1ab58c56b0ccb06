// The agent bundle files the server serves at /downloads/ (agent/bundle/build.sh). A build
// leaves each bundle packed (dist/agent-bundle/<name>.tar.gz), or, in the appliance image
// (issue 45 item 6), the x64 one as a stage: dist/agent-bundle/<name>/hopwatch-agent/, whose
// Node, dist/agent, dist/engine and packages are symbolic links to the server's own files, so
// the image does not hold them twice; the arm64 stage has its Node beside it, brotli-compressed
// (node.br), as the image runs no arm64 Node to link to. A stage is packed here when the bundle is first asked
// for (tar following the links, gzip -9: about half a minute of one core), into the data
// directory under the build's id, and served from there afterwards; packs of other builds
// (an older image on the same volume) are removed then.
import { spawn } from 'node:child_process';
import { chmodSync, createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress } from 'node:zlib';

export class AgentBundleFiles {
  /** Packing under way, by file name: two downloads at once wait for the same one. */
  private readonly packing = new Map<string, Promise<string>>();

  /** `builtDir`: dist/agent-bundle; `cacheDir`: where packed stages go (in the data directory). */
  constructor(
    private readonly builtDir: string,
    private readonly cacheDir: string,
  ) {}

  /** The path of bundle `file` (hopwatch-agent-linux-<arch>.tar.gz), packed first if need be; null when this build has none. */
  async path(file: string): Promise<string | null> {
    const packed = join(this.builtDir, file);
    if (existsSync(packed)) return packed;
    const stage = join(this.builtDir, file.replace(/\.tar\.gz$/, ''));
    if (!existsSync(join(stage, 'hopwatch-agent'))) return null;
    let p = this.packing.get(file);
    if (!p) {
      p = this.pack(stage, file);
      this.packing.set(file, p);
      p.catch(() => this.packing.delete(file));
    }
    return p;
  }

  private async pack(stage: string, file: string): Promise<string> {
    const buildId = readFileSync(join(this.builtDir, 'build-id'), 'utf8').trim();
    const dir = join(this.cacheDir, buildId);
    const target = join(dir, file);
    if (existsSync(target)) return target;
    mkdirSync(dir, { recursive: true });
    for (const other of readdirSync(this.cacheDir)) {
      if (other !== buildId) rmSync(join(this.cacheDir, other), { recursive: true, force: true });
    }
    const tmp = `${target}.${process.pid}.tmp`;
    const node = `${target}.${process.pid}.node`;
    try {
      // A Node kept compressed beside the stage goes in as hopwatch-agent/bin/node.
      // gzip -9 as build.sh packs: the same bytes as a bundle the build packs (Node's zlib at level
      // 9 left the x64 bundle 1.2 MB larger, 45.7 MB against 44.5).
      const args = ['-C', stage, '--dereference', '--owner=0', '--group=0', '--numeric-owner', '--use-compress-program=gzip -9', '-cf', tmp, 'hopwatch-agent'];
      const nodeBr = join(stage, 'node.br');
      if (existsSync(nodeBr)) {
        await pipeline(createReadStream(nodeBr), createBrotliDecompress(), createWriteStream(node));
        // Explicitly: the server's umask (077) would leave it 0700, a Node only root may run.
        chmodSync(node, 0o755);
        args.push('-C', dir, '--transform', `s,^${basename(node).replace(/\./g, '\\.')}$,hopwatch-agent/bin/node,`, basename(node));
      }
      const tar = spawn('tar', args, { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      tar.stderr.on('data', (d: Buffer) => (stderr += d));
      const exited = new Promise<number | null>((resolve, reject) => {
        tar.once('error', reject);
        tar.once('close', resolve);
      });
      const code = await exited;
      if (code !== 0) throw new Error(`tar exited ${code} packing ${stage}: ${stderr.trim()}`);
      renameSync(tmp, target);
      return target;
    } catch (err) {
      rmSync(tmp, { force: true });
      throw err;
    } finally {
      rmSync(node, { force: true });
    }
  }
}
