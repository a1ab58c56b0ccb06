#!/bin/sh
# First start: make the cluster in $PGDATA with the role and database named by POSTGRES_USER
# and POSTGRES_DB, the password POSTGRES_PASSWORD (scram-sha-256 from the network), then run
# postgres in the foreground as the postgres user. Later starts only run postgres.
set -eu
: "${POSTGRES_USER:=hopwatch}"
: "${POSTGRES_DB:=hopwatch}"
# A volume mounted over $PGDATA may come root-owned.
chown postgres:postgres "$PGDATA" /run/postgresql
chmod 0700 "$PGDATA"
as_postgres() { setpriv --reuid=postgres --regid=postgres --init-groups "$@"; }
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  [ -n "${POSTGRES_PASSWORD:-}" ] || { echo "postgres: set POSTGRES_PASSWORD for the first start" >&2; exit 2; }
  pwfile=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"
  chown postgres "$pwfile"
  as_postgres initdb -D "$PGDATA" -U "$POSTGRES_USER" --pwfile="$pwfile" -A scram-sha-256 -E UTF8 --locale=C.UTF-8 >/dev/null
  rm -f "$pwfile"
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  # Only local socket connections while the database is made.
  as_postgres pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
  if [ "$POSTGRES_DB" != postgres ]; then
    PGPASSWORD="$POSTGRES_PASSWORD" as_postgres createdb -h /run/postgresql -U "$POSTGRES_USER" "$POSTGRES_DB"
  fi
  as_postgres pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  echo "postgres: made the database $POSTGRES_DB for $POSTGRES_USER"
fi
exec setpriv --reuid=postgres --regid=postgres --init-groups postgres -D "$PGDATA" -c listen_addresses='*' "$@"
