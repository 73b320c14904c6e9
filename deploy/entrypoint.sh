#!/bin/sh
# The container's start (Dockerfile's ENTRYPOINT), as the Procfile's "web" line: wait for
# the database, apply the app's migrations, then hand the process over to gunicorn
# (gunicorn.conf.py: a worker per core on PostgreSQL with the rate limits in Redis).
#
#   deploy/entrypoint.sh                  migrations, then the server
#   deploy/entrypoint.sh --workers 2      the same, with more of gunicorn's options
#   deploy/entrypoint.sh flask db current any other command, after the migrations
#
# COMPANION_DATABASE_WAIT: how many seconds to wait for the database to answer (60): a
# compose stack starts the database and the app at once.
set -eu
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"

"$PYTHON" - <<'PY'
"""Wait until the database answers (PostgreSQL starting beside the app); SQLite at once."""
import os
import sys
import time

from sqlalchemy import create_engine, text

from companion.config import database_url

url = database_url(os.environ.get("DATABASE_URL"), os.path.abspath("instance"))
if url.startswith("sqlite"):
    sys.exit(0)
deadline = time.monotonic() + float(os.environ.get("COMPANION_DATABASE_WAIT") or 60)
engine = create_engine(url)
while True:
    try:
        with engine.connect() as connection:
            connection.execute(text("select 1"))
        break
    except Exception as error:
        if time.monotonic() > deadline:
            sys.exit(f"entrypoint: the database does not answer: {error}")
        print("entrypoint: waiting for the database …", file=sys.stderr, flush=True)
        time.sleep(1)
PY

"$PYTHON" -m flask --app companion db upgrade

case "${1:-}" in
  ""|-*) exec "$PYTHON" -m gunicorn -c gunicorn.conf.py 'companion:create_app()' "$@" ;;
  *) exec "$@" ;;
esac
