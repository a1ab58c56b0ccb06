#!/bin/sh
# The self-served installer (issue 46): GET /downloads/hopwatch-agent-install.sh, built by
# agent/bundle/build.sh (machine-arch.sh's function above this) and served with this server's
# address on the server= line below (server/agents/installer.ts).
#   curl -fLO <server>/downloads/hopwatch-agent-install.sh
#   sudo sh hopwatch-agent-install.sh '<Auto Setup link>'
# Picks the bundle for this machine by `uname -m` (hopwatch_agent_arch), downloads it from the
# same server, unpacks it in a temporary directory and runs its install.sh with the arguments
# given here. An unsupported machine gets the message naming what is supported, and nothing is
# downloaded. HOPWATCH_INSTALL_ROOT as for install.sh (tests).
set -eu
server=@HOPWATCH_SERVER@
if [ -z "${HOPWATCH_INSTALL_ROOT:-}" ] && [ "$(id -u)" -ne 0 ]; then
  echo "hopwatch-agent-install.sh: run as root (sudo sh hopwatch-agent-install.sh '<Auto Setup link>')" >&2
  exit 1
fi
arch="$(hopwatch_agent_arch)" || exit 1
file="hopwatch-agent-linux-$arch.tar.gz"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "Downloading the Hopwatch agent for Linux $arch: $server/downloads/$file"
if command -v curl >/dev/null; then
  got() { curl -fsSL -o "$work/$file" "$server/downloads/$file"; }
elif command -v wget >/dev/null; then
  got() { wget -q -O "$work/$file" "$server/downloads/$file"; }
else
  echo "hopwatch-agent-install.sh: needs curl or wget to download $server/downloads/$file" >&2
  exit 1
fi
if ! got; then
  # A server built without the cross compiler serves no arm64 bundle (404; docs/agents.md).
  echo "hopwatch-agent-install.sh: $server/downloads/$file could not be downloaded (above). If the server answers 404, it was built without the Linux $arch agent: see docs/agents.md \"Supported platforms\"." >&2
  exit 1
fi
tar -C "$work" -xzf "$work/$file"
"$work/hopwatch-agent/install.sh" "$@"
