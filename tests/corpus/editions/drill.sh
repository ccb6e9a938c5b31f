#!/usr/bin/env bash
# The upgrade-drill stores (see README.md), written by one past release's own code and migrations:
#   tests/corpus/editions/drill.sh [commit=c78fb15] [port]
# drill/<short>.sqlite + drill/<short>.json: a SQLite store; drill/<short>.pg.sql + drill/<short>.pg.json: a
# pg_dump --inserts of a PostgreSQL store (PG at $PGURL, default postgresql://postgres@127.0.0.1:5432).
# Each store holds one match of every game (server seeds, 2 seats, default options) with 6 moves played.
set -euo pipefail
REPO=${REPO:-/work/main}; PGURL=${PGURL:-postgresql://postgres@127.0.0.1:5432}
commit=$(git -C "$REPO" rev-parse "${1:-c78fb15}"); short=${commit:0:7}; port=${2:-8712}
here=$(cd "$(dirname "$0")" && pwd); out="$here/drill"; mkdir -p "$out"
tree=/tmp/rel-$short
[ -d "$tree" ] || git -C "$REPO" worktree add --detach "$tree" "$commit"
(cd "$tree" && uv sync --locked -q)
unset TURNSTILE_REDIS_URL

drill() {  # $1: store URL, $2: the JSON file to write
  export TURNSTILE_DATABASE_URL="$1"
  key=$(cd "$tree" && uv run -q turnstile keys create drill | tail -1)
  (cd "$tree" && exec uv run -q turnstile serve --port "$port") > "/tmp/drill-$short.log" 2>&1 &
  server=$!
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.3; done
  (cd "$REPO" && uv run -q python "$here/record_release.py" --url "http://127.0.0.1:$port" --app-key "$key" \
      drill --drill-json "$2")
  kill -TERM "$server"; wait "$server" 2>/dev/null || true  # uvicorn shuts down cleanly on SIGTERM
  (cd "$tree" && uv run -q turnstile verify --all | tail -1) || true
}

db=/tmp/drill-$short.db; rm -f "$db" "$db-wal" "$db-shm"
drill "sqlite:///$db" "$out/$short.json"
sqlite3 "$db" 'PRAGMA wal_checkpoint(TRUNCATE);' >/dev/null
sqlite3 "$db" 'PRAGMA journal_mode;'
cp "$db" "$out/$short.sqlite"

name=drill_$short
psql "$PGURL/postgres" -qc "DROP DATABASE IF EXISTS $name" -c "CREATE DATABASE $name"
drill "$PGURL/$name" "$out/$short.pg.json"
# --inserts: plain INSERT statements; the \restrict/\unrestrict lines newer pg_dumps write are psql meta-commands
# that a driver cannot run, so they are left out (they only guard psql against a hostile dump).
pg_dump "$PGURL/$name" --no-owner --no-privileges --inserts | grep -v '^\\\(un\)\?restrict ' > "$out/$short.pg.sql"
psql "$PGURL/postgres" -qc "DROP DATABASE $name"
