// What the agent keeps on its disk (HOPWATCH_AGENT_DIR, default /var/lib/hopwatch-agent):
// credentials.json (0600: agent id, server, credential), traces.json (the traces the server
// assigned, so tracing goes on while the server is away), spool/ (round batches not yet
// acknowledged) and link.json (the link's state, agent/link-status.ts). Files are written
// whole (temporary file, fsync, rename).
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { AssignedTrace } from './protocol.js';

export interface Credentials {
  agentId: number;
  server: string;
  credential: string;
  machineId: string;
}

export function agentDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.HOPWATCH_AGENT_DIR || '/var/lib/hopwatch-agent';
}

export function writeFileAtomic(path: string, text: string, mode = 0o600): void {
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, 'w', mode);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}

export class AgentState {
  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  get spoolDir(): string {
    return join(this.dir, 'spool');
  }

  readCredentials(): Credentials | undefined {
    const p = join(this.dir, 'credentials.json');
    if (!existsSync(p)) return undefined;
    return JSON.parse(readFileSync(p, 'utf8')) as Credentials;
  }

  writeCredentials(c: Credentials): void {
    writeFileAtomic(join(this.dir, 'credentials.json'), JSON.stringify(c), 0o600);
  }

  readTraces(): AssignedTrace[] {
    const p = join(this.dir, 'traces.json');
    if (!existsSync(p)) return [];
    return JSON.parse(readFileSync(p, 'utf8')) as AssignedTrace[];
  }

  writeTraces(traces: AssignedTrace[]): void {
    writeFileAtomic(join(this.dir, 'traces.json'), JSON.stringify(traces));
  }

  /** The server's CA certificate(s) kept by `setup --ca` (PEM), if any. */
  readCa(): string | undefined {
    const p = join(this.dir, 'ca.pem');
    return existsSync(p) ? readFileSync(p, 'utf8') : undefined;
  }

  writeCa(pem: string | undefined): void {
    if (pem === undefined) rmSync(join(this.dir, 'ca.pem'), { force: true });
    else writeFileAtomic(join(this.dir, 'ca.pem'), pem, 0o644);
  }

  /** Delete And Uninstall: credentials, the CA, traces, the link state and spool go. */
  removeAll(): void {
    for (const name of ['credentials.json', 'ca.pem', 'traces.json', 'link.json', 'spool']) rmSync(join(this.dir, name), { recursive: true, force: true });
  }
}
