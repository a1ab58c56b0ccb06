#!/bin/sh
# hopwatch_agent_arch: prints the agent bundle this machine runs (x64 or arm64), from `uname -m`
# and the bitness of its userland; otherwise says on stderr what is supported and what to do,
# and returns 1. Sourced by install.sh (in every bundle) and built into the self-served
# installer (get-agent.sh; agent/bundle/build.sh). docs/agents.md "Supported platforms".
hopwatch_agent_supported='Linux x64 (x86_64) and Linux arm64 (aarch64: Raspberry Pi 3, 4, 5, 400 and Zero 2 W with a 64-bit OS, ARM servers)'
hopwatch_agent_arch() {
  machine="$(uname -m)"
  # A 64-bit ARM kernel under a 32-bit userland (Raspberry Pi OS 32-bit on a Pi 4 or 5 boots a
  # 64-bit kernel since 2023): uname says aarch64, but the arm64 Node cannot run there.
  bits="$(getconf LONG_BIT 2>/dev/null || echo 64)"
  case "$machine" in
    x86_64 | amd64) [ "$bits" = 32 ] || { echo x64; return 0; } ;;
    aarch64 | arm64) [ "$bits" = 32 ] || { echo arm64; return 0; } ;;
  esac
  case "$machine" in
    armv6l | armv7l | armv8l | armhf | arm | aarch64 | arm64)
      cat >&2 <<MSG
The Hopwatch agent does not run on 32-bit ARM ($machine, ${bits}-bit userland): it runs on $hopwatch_agent_supported.
32-bit Raspberry Pi OS: on a Raspberry Pi 3, 4, 5, 400 or Zero 2 W, install Raspberry Pi OS (64-bit) (Raspberry Pi Imager offers it) and run this again. A Pi 1, 2 or Zero (32-bit CPU) cannot run the agent: run it on another Linux x64 or arm64 machine in the same network, or in a container there (docs/agents.md).
MSG
      ;;
    *)
      echo "The Hopwatch agent does not run on this machine ($machine, ${bits}-bit): it runs on $hopwatch_agent_supported." >&2
      ;;
  esac
  return 1
}
