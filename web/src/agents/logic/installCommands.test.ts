// The install commands the Agents page shows for an agent (issue 40 item 5): downloaded from
// this server, unpacked, installed with the agent's Auto Setup link; the container form; the
// link quoted for the shell whatever it holds.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installCommands, shellQuote } from './installCommands';

const link = {
  Server: 'http://10.251.0.1:8080',
  SetupLink: 'hopwatch://setup?mode=sentinel&id=7&key=abc_-1&server=http%3A%2F%2F10.251.0.1%3A8080',
};

describe('install commands', () => {
  it("download this server's installer (it picks x64 or arm64 by uname -m) and run it with the link", () => {
    const c = installCommands(link);
    expect(c.linux.split('\n')).toEqual([
      'curl -fLO http://10.251.0.1:8080/downloads/hopwatch-agent-install.sh',
      `sudo sh hopwatch-agent-install.sh '${link.SetupLink}'`,
    ]);
    expect(c.installed).toBe(`sudo /opt/hopwatch-agent/hopwatch-agent setup --no-run '${link.SetupLink}' && sudo systemctl restart hopwatch-agent`);
  });

  it('the container form runs the image with the link', () => {
    expect(installCommands(link).container).toBe(
      `docker run -d --name hopwatch-agent --restart unless-stopped --cap-add NET_RAW --network host -v hopwatch-agent:/data hopwatch:latest agent '${link.SetupLink}'`,
    );
  });

  it('quotes for a POSIX shell', () => {
    expect(shellQuote("a'b")).toBe(`'a'\\''b'`);
    expect(installCommands({ ...link, Server: "http://h.example/x'y" }).linux.split('\n')[0]).toBe(
      `curl -fLO 'http://h.example/x'\\''y/downloads/hopwatch-agent-install.sh'`,
    );
  });

  it('are the ones the bundle README gives (agent/bundle/README.md)', () => {
    const readme = readFileSync(resolve(import.meta.dirname, '../../../../agent/bundle/README.md'), 'utf8')
      .replaceAll('<server>', 'http://10.251.0.1:8080')
      .replaceAll("'<Auto Setup link>'", `'${link.SetupLink}'`);
    const c = installCommands(link);
    for (const command of [...c.linux.split('\n'), c.installed, c.container]) expect(readme).toContain(command);
  });
});
