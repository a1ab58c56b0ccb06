// The self-served installer (issue 46): dist/agent-bundle/hopwatch-agent-install.sh, built by
// agent/bundle/build.sh from machine-arch.sh and get-agent.sh, served at AgentInstallerScriptPath
// with the address agents are given (public URL, else the one the download used) in place of
// @HOPWATCH_SERVER@. It picks the bundle for the machine by `uname -m` and downloads it from there.
import { agentServerAddress, type AgentDeps } from './service.js';

/** Single-quotes `s` for a POSIX shell. */
export function shellQuoted(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The installer script with this server's address (`template`: the built script). */
export async function installerScript(deps: Pick<AgentDeps, 'store' | 'config'>, template: string, serverUrl: string): Promise<string> {
  const [server] = await agentServerAddress(deps, serverUrl);
  // The Host header comes from the caller: quoted, it cannot become shell text.
  return template.replace(/^server=@HOPWATCH_SERVER@$/m, () => `server=${shellQuoted(server)}`);
}
