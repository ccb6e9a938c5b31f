#!/usr/bin/env bash
# Record the editions corpus with one past release's own code (see README.md).
#   tests/corpus/editions/record_release.sh <commit> [port]
# Needs: REPO (a checkout of turnstile with a uv venv, default /work/main) and uv on PATH.
# Checks <commit> out in a scratch worktree, serves it on a fresh SQLite file, drives it with record_release.py
# (run with REPO's venv), stops it, checks every record with the release's own `turnstile verify`, removes the
# worktree.
set -euo pipefail
REPO=${REPO:-/work/main}
commit=$(git -C "$REPO" rev-parse "$1"); short=${commit:0:7}; port=${2:-8711}
here=$(cd "$(dirname "$0")" && pwd); out="$here/$short"
tree=/tmp/rel-$short; db=/tmp/corpus-$short.db
[ -d "$tree" ] || git -C "$REPO" worktree add --detach "$tree" "$commit"
(cd "$tree" && uv sync --locked -q)
rm -f "$db" "$db-wal" "$db-shm"
export TURNSTILE_DATABASE_URL="sqlite:///$db"; unset TURNSTILE_REDIS_URL
key=$(cd "$tree" && uv run -q turnstile keys create corpus | tail -1)
(cd "$tree" && exec uv run -q turnstile serve --port "$port") > "/tmp/corpus-$short.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.3; done
(cd "$REPO" && uv run -q python "$here/record_release.py" --url "http://127.0.0.1:$port" --app-key "$key" \
    --out "$out" corpus "${@:3}") || status=$?
kill "$server"; wait "$server" 2>/dev/null || true; trap - EXIT
for f in "$out"/*.ndjson; do
  printf '%s: ' "$(basename "$f")"; (cd "$tree" && uv run -q turnstile verify "$f" 2>&1 | head -1) || true
done | tee "$out/verify-own-release.txt"
exit "${status:-0}"
