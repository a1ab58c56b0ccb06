#!/bin/sh
# Removes the Hopwatch agent: its service, URL scheme handler, credentials and files
# (Delete And Uninstall in the console runs this through the service).
# HOPWATCH_INSTALL_ROOT as for install.sh.
set -eu
root="${HOPWATCH_INSTALL_ROOT:-/}"
root="${root%/}"
if [ -z "$root" ] && command -v systemctl >/dev/null && [ -d /run/systemd/system ]; then
  systemctl disable hopwatch-agent.service 2>/dev/null || true
fi
rm -f "$root/etc/systemd/system/hopwatch-agent.service" "$root/usr/share/applications/hopwatch-agent-setup.desktop"
rm -rf "$root/var/lib/hopwatch-agent" "$root/opt/hopwatch-agent"
if [ -z "$root" ] && command -v systemctl >/dev/null && [ -d /run/systemd/system ]; then
  systemctl daemon-reload
  # Last: this stops the service that may be running this script.
  systemctl stop hopwatch-agent.service 2>/dev/null || true
fi
echo "Hopwatch agent removed."
