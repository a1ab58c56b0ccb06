#!/bin/sh
# Removes from the directories given what Node never loads at run time (issue 45 item 6): source
# maps (the server and the agent run without --enable-source-maps), TypeScript declarations and
# Markdown docs; and in a node_modules, each package's own test, docs, benchmark and example
# folders and the parts of the runtime packages that are not their Node build (piscina's
# scripts and TypeScript sources, yaml's browser build). LICENSE files stay. Used on the agent
# bundle's stage (build.sh) and on the appliance image's node_modules and dist (Dockerfile).
set -eu
for dir in "$@"; do
  [ -d "$dir" ] || continue
  find "$dir" -type f \( -name '*.map' -o -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' -o -name '*.md' -o -name '*.markdown' \) -delete
  [ "$(basename "$dir")" = node_modules ] || continue
  for pkg in "$dir"/* "$dir"/@*/*; do
    [ -d "$pkg" ] || continue
    rm -rf "$pkg/test" "$pkg/tests" "$pkg/docs" "$pkg/benchmark" "$pkg/benchmarks" "$pkg/example" "$pkg/examples" "$pkg/.github"
  done
  rm -rf "$dir/yaml/browser" "$dir/piscina/scripts" "$dir/piscina/src" "$dir/piscina/test-jest"
done
