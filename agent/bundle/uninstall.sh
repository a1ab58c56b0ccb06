#!/bin/sh
# Removes the Hopwatch agent: its service, the hopwatch:// URL scheme handler and the
# association install.sh made for it in mimeapps.list (the user's other associations stay),
# credentials and state, and /opt/hopwatch-agent.
#   sudo /opt/hopwatch-agent/uninstall.sh
# Delete And Uninstall in the console runs it too, from the agent however it was started
# (HOPWATCH_AGENT_UNINSTALL, set by the launcher of an installed copy).
# Under systemd the removal runs outside hopwatch-agent.service: stopping the service kills
# every process in its cgroup, this script included, and Restart=always would start the agent
# again. Started inside the service (by the agent), the script hands itself over to a
# transient unit (systemd-run) and returns; that unit stops and disables the service first.
# HOPWATCH_INSTALL_ROOT as for install.sh (default: the root install.sh recorded).
set -eu
self="$(readlink -f "$0")"
here="$(dirname "$self")"
record="$here/install-record"
# A value install.sh wrote to install-record (key=value lines); empty when not recorded.
recorded() { if [ -f "$record" ]; then sed -n "s/^$1=//p" "$record" | head -n 1; fi; }
root="${HOPWATCH_INSTALL_ROOT-$(recorded root)}"
root="${root%/}"
systemd=
if [ -z "$root" ] && command -v systemctl >/dev/null && [ -d /run/systemd/system ]; then systemd=1; fi
inside=
if [ -n "$systemd" ] && grep -q '/hopwatch-agent\.service$' /proc/self/cgroup 2>/dev/null; then
  # The shell keeps this file open, so it reads on after its directory is gone.
  if systemd-run --unit="hopwatch-agent-uninstall-$(date +%s)" --description="Hopwatch agent uninstall" \
    --collect --quiet /bin/sh "$self"; then
    echo "Hopwatch agent uninstall handed over to a transient systemd unit (journalctl -u 'hopwatch-agent-uninstall-*')."
    exit 0
  fi
  echo "uninstall.sh: systemd-run failed; removing from inside the service (stopping it last)" >&2
  inside=1
fi
if [ -n "$systemd" ]; then
  # First, so that nothing starts the agent again while its files go.
  if [ -z "$inside" ]; then
    systemctl disable --now hopwatch-agent.service 2>/dev/null || true
  else
    systemctl disable hopwatch-agent.service 2>/dev/null || true
  fi
fi

# Takes hopwatch-agent-setup.desktop out of the x-scheme-handler/hopwatch entries of the
# mimeapps.list file $1 (a line naming only it goes); other lines stay as they were. The file
# is rewritten in place, so its owner and mode stay.
forget_url_scheme() {
  [ -f "$1" ] || return 0
  tmp="$(mktemp)"
  awk -v key='x-scheme-handler/hopwatch=' -v app='hopwatch-agent-setup.desktop' '
    index($0, key) != 1 { print; next }
    {
      value = substr($0, length(key) + 1)
      n = split(value, apps, ";")
      kept = ""
      for (i = 1; i <= n; i++) if (apps[i] != "" && apps[i] != app) kept = kept (kept == "" ? "" : ";") apps[i]
      if (kept == "") next
      print key kept (substr(value, length(value)) == ";" ? ";" : "")
    }' "$1" > "$tmp"
  cat "$tmp" > "$1"
  rm -f "$tmp"
}
if [ -z "$root" ]; then
  mimeapps="$(recorded mimeapps)"
  # Installed by an install.sh that kept no record: where xdg-mime writes for this user.
  [ -n "$mimeapps" ] || mimeapps="${XDG_CONFIG_HOME:-${HOME:-/root}/.config}/mimeapps.list"
  forget_url_scheme "$mimeapps"
fi

rm -f "$root/etc/systemd/system/hopwatch-agent.service" "$root/usr/share/applications/hopwatch-agent-setup.desktop"
rm -rf "$root/var/lib/hopwatch-agent" "$root/opt/hopwatch-agent"
if [ -z "$root" ] && command -v update-desktop-database >/dev/null; then update-desktop-database /usr/share/applications || true; fi
if [ -n "$systemd" ]; then
  systemctl daemon-reload
  systemctl reset-failed hopwatch-agent.service 2>/dev/null || true
  # systemd-run failed: last, as this stops the service that runs this script.
  if [ -n "$inside" ]; then systemctl stop hopwatch-agent.service 2>/dev/null || true; fi
fi
echo "Hopwatch agent removed."
