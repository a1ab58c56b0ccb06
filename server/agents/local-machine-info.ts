// The Local Machine's details on the Agents page (issue 41 item 4): it is the server itself,
// so its Version is the server's, Last Connected is when the server started (it has been
// connected since), and its OS is read the way an agent reports its own: /etc/os-release's
// name where there is one, else os.type() and os.release().
import { readFileSync } from 'node:fs';
import { release, type } from 'node:os';
import { AgentPlatform, type Agent } from '../contract/agents.js';

export interface ServerStart {
  version: string;
  /** ms since the epoch. */
  startedAt: number;
}

export interface OsFacts {
  type: string;
  release: string;
  /** /etc/os-release's text, null where there is none (Windows, macOS, some containers). */
  osRelease: string | null;
}

export type LocalMachineDetails = Pick<Agent, 'Version' | 'TargetVersion' | 'LastMessageUnixTime' | 'Platform' | 'OsDescription'>;

/** PRETTY_NAME, else NAME and VERSION, of an os-release text; null when it names nothing. */
export function osReleaseName(text: string): string | null {
  const field = (name: string) => {
    const m = new RegExp(`^${name}=(.*)$`, 'm').exec(text);
    return m ? m[1].trim().replace(/^(["'])(.*)\1$/, '$2') : '';
  };
  const pretty = field('PRETTY_NAME');
  if (pretty) return pretty;
  const name = [field('NAME'), field('VERSION')].filter(Boolean).join(' ');
  return name || null;
}

const platformOf = (osType: string) => (osType === 'Windows_NT' ? AgentPlatform.Windows : osType === 'Darwin' ? AgentPlatform.Mac : osType === 'Linux' ? AgentPlatform.Linux : AgentPlatform.Unknown);

export function localMachineDetails(start: ServerStart, os: OsFacts): LocalMachineDetails {
  return {
    Version: start.version,
    TargetVersion: start.version,
    LastMessageUnixTime: Math.floor(start.startedAt / 1000),
    Platform: platformOf(os.type),
    OsDescription: (os.osRelease !== null && osReleaseName(os.osRelease)) || `${os.type} ${os.release}`,
  };
}

function readOsRelease(): string | null {
  for (const path of ['/etc/os-release', '/usr/lib/os-release']) {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      /* not on this system: the next place, else os.type() */
    }
  }
  return null;
}

/** This server's facts, read once (they do not change while it runs). */
export function thisMachine(): OsFacts {
  return { type: type(), release: release(), osRelease: readOsRelease() };
}
