#!/usr/bin/env bash
# Installs what Kneeboard needs on Debian 12 when it is missing: system packages (as root),
# the Python venv, the Go simulator, the frontend build. Usage: install-deps.sh [run|test|bench]
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-run}

run_pkgs=(redis-server dnsperf unbound wrk iperf3 sysstat iputils-ping ethtool iproute2 procps nginx-light prometheus-node-exporter python3-venv)
test_pkgs=(postgresql chromium docker-compose)
want=("${run_pkgs[@]}")
[ "$mode" = test ] && want+=("${test_pkgs[@]}")
[ "$mode" = bench ] && want+=(tcpdump)  # make bench-http: the wire's own timing of each request

missing=()
for pkg in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "kneeboard: missing packages: ${missing[*]}; run as root or: sudo apt-get install ${missing[*]}" >&2
    exit 2
  fi
  echo "kneeboard: installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  if [[ " ${missing[*]} " == *" prometheus-node-exporter "* ]] && command -v systemctl >/dev/null; then
    # the lab runs its own node_exporter on the lab address; Debian's service would listen on every interface
    systemctl disable --now prometheus-node-exporter >/dev/null 2>&1 || true
  fi
fi

python=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
fi
stamp=.venv/.kneeboard-installed
if [ ! -f "$stamp" ] || [ backend/pyproject.toml -nt "$stamp" ]; then
  .venv/bin/pip install -q --upgrade pip
  .venv/bin/pip install -q -e 'backend[test]'
  touch "$stamp"
fi

if command -v go >/dev/null 2>&1 || [ -x /usr/local/go/bin/go ]; then
  GO=$(command -v go || echo /usr/local/go/bin/go)
  # devsim, kblat (dnsperf's latency reader) and kbhttp (open-loop HTTP); the first build fetches hdrhistogram-go from the Go module proxy
  (cd simulator && "$GO" build -o bin/devsim ./cmd/devsim && "$GO" build -o bin/kblat ./cmd/kblat && "$GO" build -o bin/kbhttp ./cmd/kbhttp)
else
  echo "kneeboard: Go is not installed, so devsim (device campaigns), kblat (DNS latency percentiles) and kbhttp (open-loop HTTP) are unavailable; install Go 1.23 or newer (Debian 12: golang-1.23 from bookworm-backports, or go.dev/doc/install) and rerun" >&2
fi

# The lab's CoreDNS (issue 36), built once per version into .cache/servers/coredns-VERSION/ and reused; a failed
# build is reported (its reason kept in build-error.txt, which `kneeboard lab up` shows on lab-coredns), never fatal.
coredns_version=v1.15.0
coredns_go=1.26  # CoreDNS v1.15.0's go.mod: go 1.26.0
coredns_dir=.cache/servers/coredns-$coredns_version
if [ ! -x "$coredns_dir/coredns" ]; then
  mkdir -p "$coredns_dir"
  GO=$(command -v go || { [ -x /usr/local/go/bin/go ] && echo /usr/local/go/bin/go; } || true)
  have=$([ -n "$GO" ] && "$GO" env GOVERSION 2>/dev/null | sed 's/^go//' || true)
  if [ -z "$GO" ]; then
    why="Go is not installed; CoreDNS $coredns_version needs Go >= $coredns_go (go.dev/doc/install)"
  elif [ "$(printf '%s\n%s\n' "$coredns_go" "$have" | sort -V | head -1)" != "$coredns_go" ]; then
    why="Go $have is too old; CoreDNS $coredns_version needs Go >= $coredns_go (go.dev/doc/install)"
  else
    why=
    echo "kneeboard: building CoreDNS $coredns_version with Go $have (a few minutes, once)"
    started=$(date +%s)
    tmpbin=$(mktemp -d "$coredns_dir/.build.XXXXXX")
    if GOTOOLCHAIN=local GOFLAGS= GOBIN="$PWD/$tmpbin" "$GO" install "github.com/coredns/coredns@$coredns_version" >"$coredns_dir/build.log" 2>&1; then
      mv "$tmpbin/coredns" "$coredns_dir/coredns"
      rm -f "$coredns_dir/build-error.txt"
      echo "kneeboard: built CoreDNS $coredns_version in $(( $(date +%s) - started )) s: $coredns_dir/coredns"
    else
      why="go install github.com/coredns/coredns@$coredns_version failed: $(tail -n 3 "$coredns_dir/build.log" | tr '\n' ' ')"
    fi
    rm -rf "$tmpbin"
  fi
  if [ -n "$why" ]; then
    echo "$why" >"$coredns_dir/build-error.txt"
    echo "kneeboard: the lab comes up without CoreDNS: $why" >&2
  fi
fi

if command -v npm >/dev/null 2>&1; then
  if [ ! -d frontend/node_modules ] || [ frontend/package-lock.json -nt frontend/node_modules ]; then
    # `npm install` honours the lock; `npm ci` here rejects locks that lack other platforms' optional rollup binaries
    (cd frontend && npm install --no-audit --no-fund --loglevel=error && touch node_modules)
  fi
  (cd frontend && npm run --silent build >/dev/null)
else
  echo "kneeboard: npm is not installed, so the browser UI is not built (the API still runs); apt-get install nodejs npm" >&2
fi
