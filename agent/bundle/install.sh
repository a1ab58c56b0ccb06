#!/bin/sh
# Installs the Hopwatch agent (Linux x64 or arm64: the bundle's bundle-arch): /opt/hopwatch-agent, the systemd service
# hopwatch-agent (Mode SERVICE) and the hopwatch:// URL scheme for desktop browsers (xdg).
#   sudo ./install.sh ['<Auto Setup link>']
# HOPWATCH_INSTALL_ROOT (default /) installs under another root (tests); systemctl and
# xdg-mime are then not called.
# With a link the agent is set up first, from this unpacked bundle, before anything is written:
# a server that cannot be reached or refuses the link leaves nothing behind. A later failure
# removes what this run made (issue 40 item 4; README.md).
set -eu
here="$(dirname "$(readlink -f "$0")")"
# This bundle's Node must run here: an x64 bundle on a Raspberry Pi, or an arm64 one on a PC,
# is told which bundle this machine needs (issue 46), before anything is done.
if ! ran="$("$here/bin/node" --version 2>&1)"; then
  . "$here/machine-arch.sh"
  bundle="$(cat "$here/bundle-arch" 2>/dev/null || echo unknown)"
  if arch="$(hopwatch_agent_arch)"; then
    if [ "$arch" = "$bundle" ]; then
      echo "install.sh: this bundle's Node (Linux $bundle) does not run on this machine: $ran" >&2
    else
      echo "install.sh: this is the Hopwatch agent for Linux $bundle; this machine ($(uname -m)) needs hopwatch-agent-linux-$arch.tar.gz from the same server (or the server's /downloads/hopwatch-agent-install.sh, which picks it)." >&2
    fi
  fi
  exit 1
fi
root="${HOPWATCH_INSTALL_ROOT:-/}"
root="${root%/}"
[ -n "$root" ] || [ "$(id -u)" -eq 0 ] || { echo "install.sh: run as root (sudo ./install.sh)"; exit 1; }
dest="$root/opt/hopwatch-agent"
unit="$root/etc/systemd/system/hopwatch-agent.service"
desktop="$root/usr/share/applications/hopwatch-agent-setup.desktop"
state="$root/var/lib/hopwatch-agent"
# What this run makes (not what was there before it), removed again if a step fails.
made=""
for p in "$dest" "$unit" "$desktop" "$state"; do [ -e "$p" ] || made="$made$p
"; done
undo() {
  if [ -z "$root" ] && printf '%s' "$made" | grep -qx "$unit" && [ -d /run/systemd/system ]; then
    systemctl disable --now hopwatch-agent.service >/dev/null 2>&1 || true
  fi
  printf '%s' "$made" | while IFS= read -r p; do [ -n "$p" ] && rm -rf "$p"; done
  [ -z "$root" ] && [ -d /run/systemd/system ] && systemctl daemon-reload >/dev/null 2>&1 || true
}
trap 'rc=$?; [ "$rc" -eq 0 ] || { undo; echo "install.sh: failed; removed what it had installed."; }' EXIT
if [ $# -ge 1 ]; then
  HOPWATCH_AGENT_DIR="$state" "$here/hopwatch-agent" setup --no-run "$1" || {
    undo
    trap - EXIT
    echo "install.sh: the agent could not be set up with this link (above): nothing was installed."
    exit 1
  }
fi
mkdir -p "$dest" "$root/etc/systemd/system" "$root/usr/share/applications" "$root/var/lib/hopwatch-agent"
chmod 700 "$root/var/lib/hopwatch-agent"
cp -r "$here/bin" "$here/app" "$here/bundle-arch" "$here/hopwatch-agent" "$here/hopwatch-agent-open-link" "$here/uninstall.sh" "$dest/"
cp "$here/hopwatch-agent.service" "$root/etc/systemd/system/hopwatch-agent.service"
cp "$here/hopwatch-agent-setup.desktop" "$root/usr/share/applications/hopwatch-agent-setup.desktop"
# What uninstall.sh needs to find again (key=value lines). Its presence also marks this copy
# as installed: the launcher then lets Delete And Uninstall run uninstall.sh.
printf 'root=%s\n' "$root" > "$dest/install-record"
if [ -z "$root" ]; then
  command -v update-desktop-database >/dev/null && update-desktop-database /usr/share/applications || true
  # xdg-mime writes the association into this user's mimeapps.list: recorded, so that
  # uninstall.sh takes it out of that file even when it runs without this HOME (the service).
  if command -v xdg-mime >/dev/null && xdg-mime default hopwatch-agent-setup.desktop x-scheme-handler/hopwatch; then
    printf 'mimeapps=%s\n' "${XDG_CONFIG_HOME:-${HOME:-}/.config}/mimeapps.list" >> "$dest/install-record"
  fi
  if command -v systemctl >/dev/null && [ -d /run/systemd/system ]; then
    systemctl daemon-reload
    systemctl enable --now hopwatch-agent.service
  else
    echo "No systemd here: run /opt/hopwatch-agent/hopwatch-agent run --service yourself."
  fi
fi
echo "Hopwatch agent installed in $dest."
