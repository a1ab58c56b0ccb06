#!/usr/bin/env sh
# Builds the rawsock addon into dist/engine/native/ with the system C compiler and the
# headers that ship with Node (<prefix>/include/node). No node-gyp, no downloads.
# The headers are those of the project's Node (node_modules/.bin/node: the node-linux-<arch>
# package npm ci installs, docs/decisions.md "Node runtime"), the Node that loads the addon;
# the node in PATH only where npm has no Node package for this CPU. The addon uses Node-API,
# whose ABI is stable across Node versions.
set -eu
cd "$(dirname "$0")/../.."
node=node
[ -x node_modules/.bin/node ] && node=node_modules/.bin/node
include="$("$node" -p "require('path').resolve(process.execPath, '../../include/node')")"
mkdir -p dist/engine/native
${CC:-cc} -O2 -Wall -shared -fPIC -I"$include" engine/native/rawsock.c -o dist/engine/native/rawsock.node
