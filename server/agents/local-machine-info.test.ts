// Issue 41 item 4: the Local Machine's row carried a blank Version and Last Connected and
// OS "UNKNOWN" on Linux. It is the server itself: its version, its start, its OS.
import { describe, expect, it } from 'vitest';
import { AgentPlatform } from '../contract/agents.js';
import { localMachineDetails, osReleaseName } from './local-machine-info.js';

describe('the Local Machine row', () => {
  it('gives the server version, its start as Last Connected and the OS', () => {
    const d = localMachineDetails({ version: '1.4.0', startedAt: 1_700_000_000_500 }, { type: 'Linux', release: '6.8.0-45-generic', osRelease: 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\n' });
    expect(d).toEqual({ Version: '1.4.0', TargetVersion: '1.4.0', LastMessageUnixTime: 1_700_000_000, Platform: AgentPlatform.Linux, OsDescription: 'Debian GNU/Linux 12 (bookworm)' });
  });
  it('falls back to os.type() and os.release() without /etc/os-release, and names Windows and macOS', () => {
    expect(localMachineDetails({ version: '1', startedAt: 0 }, { type: 'Linux', release: '6.1.0', osRelease: null }).OsDescription).toBe('Linux 6.1.0');
    expect(localMachineDetails({ version: '1', startedAt: 0 }, { type: 'Windows_NT', release: '10.0.19045', osRelease: null })).toMatchObject({ Platform: AgentPlatform.Windows, OsDescription: 'Windows_NT 10.0.19045' });
    expect(localMachineDetails({ version: '1', startedAt: 0 }, { type: 'Darwin', release: '23.1.0', osRelease: null }).Platform).toBe(AgentPlatform.Mac);
  });
  it('reads PRETTY_NAME, quoted or not, else NAME and VERSION', () => {
    expect(osReleaseName('PRETTY_NAME=Alpine\n')).toBe('Alpine');
    expect(osReleaseName("NAME='Fedora Linux'\nVERSION=\"40\"\n")).toBe('Fedora Linux 40');
    expect(osReleaseName('')).toBeNull();
  });
});
