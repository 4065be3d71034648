#!/usr/bin/env bash
# Start a throwaway Kneeboard stack for trying the UI and the e2e journey by hand:
# redis, the API (serving frontend/dist), one Celery worker (agent "local") and unbound.
# Usage: tests/e2e/dev-stack.sh start|stop   (state in $KB_STACK_DIR, default /tmp/kb-fe)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
DIR="${KB_STACK_DIR:-/tmp/kb-fe}"
REDIS_PORT="${KB_REDIS_PORT:-6391}"
API_PORT="${KB_API_PORT:-8765}"
DNS_PORT="${KB_DNS_PORT:-5354}"
export DATABASE_URL="sqlite:///$DIR/kb.db"
export REDIS_URL="redis://127.0.0.1:$REDIS_PORT/0"
export FRONTEND_DIST="$ROOT/frontend/dist"
export PYTHONPATH="$ROOT/backend"
cmd="${1:-start}"
if [ "$cmd" = stop ]; then
  # each process was started as the leader of its own process group: end the group (unbound is a child)
  # unbound may run in a session of its own: end it by its pid too
  for f in "$DIR"/*.pid; do
    [ -f "$f" ] || continue
    pid="$(cat "$f")"
    kill -- "-$pid" 2>/dev/null || kill "$pid" 2>/dev/null || true
    rm -f "$f"
  done
  exit 0
fi
mkdir -p "$DIR"
cd "$ROOT"
setsid redis-server --port "$REDIS_PORT" --save "" --appendonly no --daemonize no >"$DIR/redis.log" 2>&1 & echo $! >"$DIR/redis.pid"
.venv/bin/alembic upgrade head >"$DIR/alembic.log" 2>&1
setsid .venv/bin/uvicorn kneeboard.main:app --host 127.0.0.1 --port "$API_PORT" >"$DIR/api.log" 2>&1 & echo $! >"$DIR/api.pid"
setsid .venv/bin/celery -A kneeboard.worker.celery_app worker -Q local -c 1 --pool=solo >"$DIR/worker.log" 2>&1 & echo $! >"$DIR/worker.pid"
setsid .venv/bin/python -c "from pathlib import Path; from kneeboard.lab.dns import start_unbound; p=start_unbound('127.0.0.1', $DNS_PORT, Path('$DIR/dns')); open('$DIR/unbound.pid', 'w').write(str(p.pid)); p.wait()" >"$DIR/dns.log" 2>&1 & echo $! >"$DIR/dns.pid"
for i in $(seq 1 50); do curl -sf "http://127.0.0.1:$API_PORT/api/v1/health" >/dev/null && break; sleep 0.2; done
echo "KB_BASE_URL=http://127.0.0.1:$API_PORT KB_DNS_HOST=127.0.0.1 KB_DNS_PORT=$DNS_PORT"
