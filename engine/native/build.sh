#!/usr/bin/env sh
# Builds the rawsock addon into dist/engine/native/ with the system C compiler and the
# headers that ship with Node (<prefix>/include/node). No node-gyp, no downloads.
set -eu
cd "$(dirname "$0")/../.."
include="$(node -p "require('path').resolve(process.execPath, '../../include/node')")"
mkdir -p dist/engine/native
${CC:-cc} -O2 -Wall -shared -fPIC -I"$include" engine/native/rawsock.c -o dist/engine/native/rawsock.node
