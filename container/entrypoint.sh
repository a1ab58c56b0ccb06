#!/bin/sh
# The appliance image's entry point (docs/deploy.md "Remote agents in containers"):
#   (no arguments) | server      the Hopwatch server (the default)
#   agent '<Auto Setup link>'    a remote agent (hopwatch-agent) in this container
#   agent                        the same, the link read from $HOPWATCH_AGENT_LINK_FILE (a
#                                Kubernetes Secret with one link per node) or $HOPWATCH_AGENT_LINK
#   migrate-store --to postgres://...  copies this appliance's DuckDB store (/data, HOPWATCH_DATA_DIR)
#                                into PostgreSQL: a running appliance's snapshot, then (run again once
#                                it is stopped) what changed since; or a stopped one's store (docs/deploy.md
#                                "Moving an appliance onto PostgreSQL")
#   health                       the image's health check: the server's /readyz, or for an agent
#                                container `hopwatch-agent health` (its link up, or down < 60 s)
#   anything else                run as given (node -e ..., sh)
# The agent keeps its state in /data/agent (HOPWATCH_AGENT_DIR): after the first start the
# link's key is spent and the stored credential is used (setup --reuse), so a restarted
# container comes back as the same agent.
set -eu
cd /app
case "${1:-server}" in
  server)
    [ "$#" -gt 0 ] && shift
    # The server's glibc settings and node flags (server/node-flags.ts says why; node-flags.test.ts
    # checks this line).
    exec env MALLOC_MMAP_THRESHOLD_=1048576 MALLOC_TRIM_THRESHOLD_=8388608 node --initial-old-space-size=64 --max-semi-space-size=8 dist/server/main.js "$@"
    ;;
  agent)
    shift
    link="${1:-}"
    if [ -z "$link" ] && [ -n "${HOPWATCH_AGENT_LINK_FILE:-}" ]; then
      [ -r "$HOPWATCH_AGENT_LINK_FILE" ] || { echo "hopwatch: no link file $HOPWATCH_AGENT_LINK_FILE (one Auto Setup link per node)" >&2; exit 2; }
      link="$(cat "$HOPWATCH_AGENT_LINK_FILE")"
    fi
    [ -n "$link" ] || link="${HOPWATCH_AGENT_LINK:-}"
    [ -n "$link" ] || { echo "usage: agent '<Auto Setup link>' (copy it from the console's agent detail: Auto Setup)" >&2; exit 2; }
    export HOPWATCH_AGENT_DIR="${HOPWATCH_AGENT_DIR:-/data/agent}"
    # The young generation capped as in agent/bundle/hopwatch-agent (docs/agents.md, "Memory").
    exec node --max-semi-space-size=2 --optimize-for-size dist/agent/cli.js setup --reuse "$link"
    ;;
  migrate-store)
    exec node dist/server/cli/main.js "$@"
    ;;
  health)
    # PID 1 is this container's main process: the agent or the server.
    if tr '\0' ' ' < /proc/1/cmdline | grep -q 'agent/cli.js'; then
      export HOPWATCH_AGENT_DIR="${HOPWATCH_AGENT_DIR:-/data/agent}"
      exec node dist/agent/cli.js health
    fi
    exec node -e "fetch('http://127.0.0.1:'+(process.env.HOPWATCH_PORT||8080)+'/readyz').then(r=>process.exit(r.status===200?0:1),()=>process.exit(1))"
    ;;
  *)
    exec "$@"
    ;;
esac
