#!/bin/sh
# The official images' start-up, as far as docker-compose.yml relies on it: `postgres` initialises $PGDATA on first
# start with POSTGRES_USER / POSTGRES_PASSWORD / POSTGRES_DB and listens on every address; `redis-server` runs as
# the redis user; anything else runs as given.
set -e
if [ "$1" = postgres ]; then
  if [ "$(id -u)" = 0 ]; then
    install -d -o postgres -g postgres -m 700 "$PGDATA"
    install -d -o postgres -g postgres -m 2775 /var/run/postgresql
    exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
  fi
  shift
  if [ ! -s "$PGDATA/PG_VERSION" ]; then
    : "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is not set}"
    user=${POSTGRES_USER:-postgres}
    db=${POSTGRES_DB:-$user}
    pwfile=$(mktemp)
    printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
    initdb -D "$PGDATA" -U "$user" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 -E UTF8 >/dev/null
    rm -f "$pwfile"
    echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
    if [ "$db" != postgres ]; then
      pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
      createdb -U "$user" "$db"
      pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
    fi
    echo "stand-in postgres: initialised $PGDATA (user $user, database $db)"
  fi
  exec postgres -c listen_addresses='*' "$@"
fi
if [ "$1" = redis-server ] && [ "$(id -u)" = 0 ]; then
  exec setpriv --reuid=redis --regid=redis --init-groups "$@"
fi
exec "$@"
