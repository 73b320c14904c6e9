#!/bin/sh
# As the official image does, in short: a new cluster on the first start (the user, its
# password, the database), connections from the network with a password, then postgres
# as the user postgres.
set -eu
mkdir -p "$PGDATA" /run/postgresql
chown -R postgres:postgres "$PGDATA" /run/postgresql
chmod 700 "$PGDATA"
as_postgres() { setpriv --reuid=postgres --regid=postgres --init-groups "$@"; }
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  user="${POSTGRES_USER:-postgres}"
  printf '%s\n' "${POSTGRES_PASSWORD:?the database needs a password}" > /tmp/password
  chown postgres /tmp/password
  as_postgres initdb -D "$PGDATA" -U "$user" --pwfile=/tmp/password --encoding=UTF8 \
    --locale=C.UTF-8 --auth-local=trust --auth-host=scram-sha-256 > /dev/null
  rm /tmp/password
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  echo "listen_addresses = '*'" >> "$PGDATA/postgresql.conf"
  if [ "${POSTGRES_DB:-$user}" != postgres ]; then
    echo "CREATE DATABASE \"${POSTGRES_DB:-$user}\" OWNER \"$user\"" |
      as_postgres postgres --single -D "$PGDATA" -j postgres > /dev/null
  fi
fi
exec setpriv --reuid=postgres --regid=postgres --init-groups postgres -D "$PGDATA" "$@"
