#!/usr/bin/env bash
# Installs the Debian packages the suites need (browser, test networks, probing peers,
# containers, the cluster proof's HAProxy; the linux-arm64 agent bundle's cross compiler and the qemu that runs it in
# test/agents/agent-arm64.test.ts). Runs before `vitest run` in `npm test`. As root it installs what is
# missing; otherwise it names the one command to run.
set -euo pipefail

packages=(chromium nftables iproute2 iputils-ping mtr-tiny scamper fping traceroute podman runc debootstrap podman-compose golang-github-containernetworking-plugin-dnsname prometheus postgresql-15 redis-server haproxy
  gcc-aarch64-linux-gnu libc6-dev-arm64-cross libstdc++6-arm64-cross qemu-user-static)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "test/setup.sh: missing Debian packages: ${missing[*]}" >&2
  echo "Run as root: apt-get update && apt-get install -y ${missing[*]}" >&2
  exit 1
fi
echo "test/setup.sh: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
