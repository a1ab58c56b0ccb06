# Hopwatch appliance image. See docs/deploy.md for how to run it and why it is built this way.
#
#   docker build -t hopwatch:latest .
#   docker run -d -p 8080:8080 -v hopwatch-data:/data -e HOPWATCH_ROOT_PASSWORD=... hopwatch:latest
#
# Two base images, both build arguments so that air-gapped builders can use local mirrors:
#   BASE_IMAGE    has Node and npm; the build stage compiles everything with it.
#   RUNTIME_IMAGE the plain Debian the Node image is built on; the runtime stage takes only the
#                 node binary from the build stage. Starting from the Node image instead would
#                 ship npm and yarn, and setting the capability on its node binary in a later
#                 layer would store the 127 MB binary a second time.
# The node the image runs is the project's own (package.json optionalDependencies
# node-linux-<arch>, the Node LTS the suites ran on; docs/decisions.md "Node runtime"), which
# npm ci installs; BASE_IMAGE's node runs npm. Both are Node 24 LTS.
# Needs BuildKit (Docker 23+ default, or podman/buildah) for RUN --mount.
ARG BASE_IMAGE=node:24-bookworm-slim
ARG RUNTIME_IMAGE=debian:bookworm-slim

# ---------------------------------------------------------------------------------------------
FROM ${BASE_IMAGE} AS build
# Set when the npm registry is reached through a TLS-intercepting proxy (path of a CA bundle
# that the builder mounts into the build); unset for normal builds.
ARG npm_config_cafile
# raw-socket is a native addon built by node-gyp; libcap2-bin gives setcap for the runtime node;
# gcc-aarch64-linux-gnu and libc6-dev-arm64-cross cross-compile the linux-arm64 agent bundle's
# addon, so that the image serves the Raspberry Pi agent too (docs/agents.md "Supported platforms").
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ libcap2-bin gcc-aarch64-linux-gnu libc6-dev-arm64-cross \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Dependencies first so that source edits do not invalidate the npm layer.
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# Full build (wasm kernels, server, console), then drop the dev dependencies: what is left in
# node_modules is what the runtime stage ships, less what nothing reads (issue 45 item 6,
# docs/deploy.md "Image size"): the @ip-location-db packages (the engine reads the compressed
# copies build:engine put in dist/engine/data), source maps, declarations, docs and browser
# builds, the console's source maps (agent/bundle/prune.sh), and DuckDB's symbol tables (strip
# keeps the dynamic ones). The agent bundles are left as stages of links to these very files
# and, for x64, the runtime's Node (HOPWATCH_AGENT_BUNDLE_NODE; agent/bundle/build.sh; the arm64
# Node beside its stage, stripped and brotli-compressed); the server packs a bundle when first
# asked, into /data (server/agents/bundle-files.ts).
RUN HOPWATCH_AGENT_BUNDLE_NODE=/usr/local/bin/node npm run build \
 && npm prune --omit=dev --no-audit --no-fund \
 && rm -rf node_modules/.cache node_modules/@ip-location-db \
 && sh agent/bundle/prune.sh node_modules dist/server dist/engine dist/agent dist/wasm dist/web \
 && find node_modules -type f \( -name '*.so' -o -name '*.node' \) -exec strip {} +
# The node binary the runtime runs, without its symbol tables (strip: 127 MB become 109; stack
# traces and profiles are V8's and stay the same), with CAP_NET_RAW as a file capability so that the
# non-root user can open raw ICMP/UDP/TCP sockets for probing, and nothing else privileged:
# the project's Node (node_modules/.bin/node; BASE_IMAGE's own on a CPU npm has no Node
# package for). Then the Node package leaves node_modules: the runtime has it as /usr/local/bin/node.
RUN mkdir /out \
 && if [ -e node_modules/.bin/node ]; then strip -o /out/node "$(readlink -f node_modules/.bin/node)"; else strip -o /out/node "$(command -v node)"; fi \
 && rm -rf node_modules/node-linux-* node_modules/.bin/node \
 && cp "$(command -v setcap)" "$(command -v getcap)" /out/ \
 && /out/setcap cap_net_raw+ep /out/node

# ---------------------------------------------------------------------------------------------
FROM ${RUNTIME_IMAGE} AS runtime
# One layer installs node and sets its capability in place (COPY does not reliably keep file
# capabilities across builders), then checks the capability is really there.
# libcap2 (needed by setcap) is part of every Debian base (apt -> libsystemd0 -> libcap2).
RUN --mount=type=bind,from=build,source=/out,target=/mnt/out \
    install -m 0755 /mnt/out/node /usr/local/bin/node \
 && /mnt/out/setcap cap_net_raw+ep /usr/local/bin/node \
 && /mnt/out/getcap /usr/local/bin/node | grep -q cap_net_raw \
 && useradd --system --uid 10001 --user-group --home-dir /data --no-create-home \
      --shell /usr/sbin/nologin hopwatch \
 && mkdir -p /data \
 && chown hopwatch:hopwatch /data

WORKDIR /app
# Application files stay owned by root: the service user can read but not change them.
COPY --from=build /src/package.json ./package.json
COPY --from=build /src/node_modules ./node_modules
COPY --from=build /src/dist ./dist
# `<image>` runs the server, `<image> agent '<link>'` a remote agent (container/entrypoint.sh).
COPY --chmod=0755 container/entrypoint.sh /usr/local/bin/hopwatch-entrypoint
# The per-test pages Insights results link to (served at /docs/insights/).
COPY --from=build /src/docs/insights ./docs/insights

ENV NODE_ENV=production \
    HOPWATCH_PORT=8080 \
    HOPWATCH_HOST=0.0.0.0 \
    HOPWATCH_DATA_DIR=/data \
    HOPWATCH_ROOT_USER=admin
# HOPWATCH_ROOT_PASSWORD is deliberately not set here: pass it at run time (env file, secret).
# Unset, the server generates a temporary password and prints it once in the log.

VOLUME /data
EXPOSE 8080
USER hopwatch:hopwatch

# The entry point's `health`: the server's /readyz (200 once the store is open and the server
# takes requests; node's fetch, the slim base has no curl), or in an agent container
# `hopwatch-agent health`: healthy while its link to the server is up or has been down for
# less than a minute (it keeps tracing and spooling meanwhile; the check says since when).
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["/usr/local/bin/hopwatch-entrypoint", "health"]

# The server closes the store and exits on SIGTERM, well inside the default 10 s stop timeout.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/hopwatch-entrypoint"]
CMD ["server"]
