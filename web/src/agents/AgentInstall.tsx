// How to install an agent (issue 40 item 5), in the DEPLOY footer of AGENT DETAIL: the
// commands to copy for a headless Linux x64 or arm64 machine (this server's installer script,
// which picks the bundle by `uname -m`, run with the Auto Setup link), for a machine with the agent installed already, and
// the container form; a warning when the link names an address agents elsewhere cannot reach
// (issue 40 item 4), pointing at Settings > General's public URL. The page loads the link.
import { Link } from 'react-router-dom';
import type { AgentDownloadLink } from '../../../server/contract/agents';
import { reportError } from '../state/reportError';
import { showInfo } from '../state/toasts';
import { copyText } from '../target/clipboard';
import { installCommands } from './logic/installCommands';
import { Texts } from './logic/agentRows';

function CommandBlock({ label, text }: { label: string; text: string }) {
  const copy = () =>
    void copyText(text).then(
      () => showInfo(Texts.commandsCopied),
      (e) => reportError(e),
    );
  return (
    <figure className="agent-command">
      <figcaption>
        <span>{label}</span>
        <button type="button" className="button secondary small" aria-label={`Copy: ${label}`} onClick={copy}>
          Copy
        </button>
      </figcaption>
      <pre>
        <code>{text}</code>
      </pre>
    </figure>
  );
}

export function AgentInstall({ link }: { link: AgentDownloadLink }) {
  const c = installCommands(link);
  return (
    <section className="agent-install" aria-label="Install this agent">
      {link.Warning && (
        <p className="agent-install-warning" role="alert">
          {link.Warning} <Link to="/settings">Open Settings</Link>
        </p>
      )}
      <CommandBlock label="Install on Linux x64 or arm64, e.g. a Raspberry Pi with a 64-bit OS (as root)" text={c.linux} />
      <CommandBlock label="Agent installed already: set it up with this link" text={c.installed} />
      <CommandBlock label="Or in a container (the Hopwatch image, x64)" text={c.container} />
      <p className="hint">
        The installer picks the agent for this machine (x64 or arm64; it says what is supported on any other) and runs its install.sh, which sets the agent up with the link (hopwatch-agent setup) and starts its service; if the server cannot be reached it removes what it installed. The
        link works once and stays the same until then; New Setup Link makes another, and the one copied before stops working.
      </p>
    </section>
  );
}
