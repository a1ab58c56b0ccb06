// The commands that install an agent (issue 40 item 5): what the Agents page shows to copy
// after Create and under DEPLOY, and what the bundle's README.md (agent/bundle/README.md) and
// docs/agents.md "Auto Setup" say. A headless Linux machine has no browser to paste a
// hopwatch:// link into: it downloads this server's installer script, which picks the bundle for
// the machine's CPU by `uname -m` (x64 or arm64: a Raspberry Pi with a 64-bit OS; anything else
// is told what is supported), downloads it from this server and gives the link to its
// install.sh, which runs `hopwatch-agent setup --no-run '<link>'` and starts the service (issue 46).
import { AgentInstallerScriptPath, type AgentDownloadLink } from '../../../../server/contract/agents';

/** Single-quotes `s` for a POSIX shell unless it holds only characters no shell treats specially. */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_:/.%@+,=-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The image agents run in a container (compose.agent.yaml's default HOPWATCH_IMAGE). */
export const AgentImage = 'hopwatch:latest';

export interface InstallCommands {
  /** Download the installer, run it with the link (it picks x64 or arm64): one command a line. */
  linux: string;
  /** A machine with the agent installed already: set it up with this link and restart its service. */
  installed: string;
  /** The container form (docs/agents.md "In a container"). */
  container: string;
}

export function installCommands(l: Pick<AgentDownloadLink, 'Server' | 'SetupLink'>): InstallCommands {
  const installer = AgentInstallerScriptPath.split('/').pop()!;
  // Always quoted: the link holds & and ?.
  const link = `'${l.SetupLink.replace(/'/g, `'\\''`)}'`;
  return {
    linux: [`curl -fLO ${shellQuote(l.Server + AgentInstallerScriptPath)}`, `sudo sh ${installer} ${link}`].join('\n'),
    installed: `sudo /opt/hopwatch-agent/hopwatch-agent setup --no-run ${link} && sudo systemctl restart hopwatch-agent`,
    container: `docker run -d --name hopwatch-agent --restart unless-stopped --cap-add NET_RAW --network host -v hopwatch-agent:/data ${AgentImage} agent ${link}`,
  };
}
