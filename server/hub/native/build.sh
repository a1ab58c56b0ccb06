#!/usr/bin/env sh
# Builds the hub's fan-out addon (server/hub/native/fanout.c) into dist/server/hub/native/, as
# engine/native/build.sh builds rawsock: the system C compiler, the headers of the project's
# Node, Node-API (stable across Node versions). Without it the hub writes through ws alone.
set -eu
cd "$(dirname "$0")/../../.."
node=node
[ -x node_modules/.bin/node ] && node=node_modules/.bin/node
include="$("$node" -p "require('path').resolve(process.execPath, '../../include/node')")"
mkdir -p dist/server/hub/native
${CC:-cc} -O2 -Wall -shared -fPIC -pthread -I"$include" server/hub/native/fanout.c -o dist/server/hub/native/fanout.node
