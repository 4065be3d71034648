#!/usr/bin/env bash
# Installs what Kneeboard needs on Debian 12 when it is missing: system packages (as root),
# the Python venv, the Go simulator, the frontend build. Usage: install-deps.sh [run|test|bench|compose]
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-run}

# iptables: the lab's FORWARD rules for its agents (lab/agents.py); every command the code and tests start comes from
# here, as scripts/check-commands.py checks in `make test`
run_pkgs=(redis-server dnsperf unbound wrk iperf3 sysstat iputils-ping ethtool iproute2 iptables nftables procps nginx-light prometheus-node-exporter haproxy caddy bind9 linux-perf python3-venv)
test_pkgs=(postgresql chromium docker-compose prometheus stress-ng)  # prometheus: the PromQL tests start their own; stress-ng: the busy host (make test-busy)
want=("${run_pkgs[@]}")
[ "$mode" = test ] && want+=("${test_pkgs[@]}")
[ "$mode" = bench ] && want+=(tcpdump curl)  # make bench-http: the wire's own timing of each request; curl waits for its nginx
[ "$mode" = review ] && want+=(nsd)  # KB_REVIEW=1 tests/integration/test_review_debian_dns.py: a DNS server the lab does not run

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
  # the lab runs its own servers (haproxy, caddy…) on the lab address: no package's init script may start Debian's
  # service on every interface (policy-rc.d exiting 101 forbids it where systemd is not init; systemctl below where it is)
  policy=
  [ -e /usr/sbin/policy-rc.d ] || { policy=/usr/sbin/policy-rc.d; printf '#!/bin/sh\nexit 101\n' >"$policy"; chmod 755 "$policy"; }
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null || { [ -z "$policy" ] || rm -f "$policy"; exit 1; }
  [ -z "$policy" ] || rm -f "$policy"
  if command -v systemctl >/dev/null; then
    for svc in haproxy caddy prometheus; do
      [[ " ${missing[*]} " == *" $svc "* ]] && { systemctl disable --now "$svc" >/dev/null 2>&1 || true; }
    done
    # bind9's unit is named (it would answer on :53 of every interface)
    [[ " ${missing[*]} " == *" bind9 "* ]] && { systemctl disable --now named >/dev/null 2>&1 || true; }
  fi
  if [[ " ${missing[*]} " == *" prometheus-node-exporter "* ]] && command -v systemctl >/dev/null; then
    # the lab runs its own node_exporter on the lab address; Debian's service would listen on every interface
    systemctl disable --now prometheus-node-exporter >/dev/null 2>&1 || true
  fi
fi

# `make compose-test` only (install-deps.sh compose): a Docker engine, Compose 1.29 and mmdebstrap for its offline
# base images. A block of its own: `make test` never asks for them, and a machine that cannot have them says so here.
if [ "$mode" = compose ]; then
  compose_missing=()
  for pkg in docker.io docker-compose mmdebstrap; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || compose_missing+=("$pkg")
  done
  if [ ${#compose_missing[@]} -gt 0 ]; then
    echo "kneeboard: installing ${compose_missing[*]} (make compose-test)"
    if [ "$(id -u)" != 0 ] || ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
         "${compose_missing[@]}" >/dev/null; }; then
      echo "kneeboard: make compose-test needs ${compose_missing[*]} (as root: apt-get install ${compose_missing[*]})" >&2
      exit 2
    fi
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

# The lab's Go servers (issue 36), each built once per version into .cache/servers/NAME-VERSION/ and reused; a failed
# build is reported (its reason kept in build-error.txt, which `kneeboard lab up` shows on the service), never fatal.
# lab_server TITLE VERSION GO_MIN DIR BINARY BUILD: BUILD GO TMPDIR VERSION leaves TMPDIR/BINARY (its output is the log).
lab_server() {
  local title=$1 version=$2 go_min=$3 dir=$4 binary=$5 build=$6 GO have why started tmp
  [ -x "$dir/$binary" ] && return 0
  mkdir -p "$dir"
  GO=$(command -v go || { [ -x /usr/local/go/bin/go ] && echo /usr/local/go/bin/go; } || true)
  have=$([ -n "$GO" ] && "$GO" env GOVERSION 2>/dev/null | sed 's/^go//' || true)
  if [ -z "$GO" ]; then
    why="Go is not installed; $title $version needs Go >= $go_min (go.dev/doc/install)"
  elif [ "$(printf '%s\n%s\n' "$go_min" "$have" | sort -V | head -1)" != "$go_min" ]; then
    why="Go $have is too old; $title $version needs Go >= $go_min (go.dev/doc/install)"
  else
    why=
    echo "kneeboard: building $title $version with Go $have (a few minutes, once)"
    started=$(date +%s)
    tmp=$(mktemp -d "$dir/.build.XXXXXX")
    if "$build" "$GO" "$tmp" "$version" >"$dir/build.log" 2>&1 && [ -x "$tmp/$binary" ]; then
      mv "$tmp/$binary" "$dir/$binary"
      rm -f "$dir/build-error.txt"
      echo "kneeboard: built $title $version in $(( $(date +%s) - started )) s: $dir/$binary"
    else
      why="building $title $version failed: $(tail -n 3 "$dir/build.log" | tr '\n' ' ')"
    fi
    rm -rf "$tmp"
  fi
  if [ -n "$why" ]; then
    echo "$why" >"$dir/build-error.txt"
    echo "kneeboard: the lab comes up without $title: $why" >&2
  fi
}

build_coredns() {  # CoreDNS v1.15.0's go.mod: go 1.26.0
  GOTOOLCHAIN=local GOFLAGS= GOBIN="$PWD/$2" "$1" install "github.com/coredns/coredns@$3"
}

# `go install …@version` is refused for AdGuard Home (the module proxy answers 403 for its version list), so the module
# is fetched with `go mod download` and built from a writable copy; main.go embeds the web UI from build/, which may be
# empty (the lab uses DNS and the /control API only).
build_adguard() {  # AdGuard Home v0.107.79's go.mod: go 1.26.6
  local module=github.com/AdguardTeam/AdGuardHome src
  src=$(GOTOOLCHAIN=local GOFLAGS= "$1" mod download -json "$module@$3" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
  [ -d "$src" ] && cp -R "$src/." "$2/" && chmod -R u+w "$2" && mkdir -p "$2/build" &&
    (cd "$2" && CGO_ENABLED=0 GOTOOLCHAIN=local GOFLAGS= "$1" build -trimpath -o AdGuardHome \
       -ldflags "-s -w -X $module/internal/version.version=$3 -X $module/internal/version.channel=release" .)
}

lab_server CoreDNS v1.15.0 1.26 .cache/servers/coredns-v1.15.0 coredns build_coredns
lab_server "AdGuard Home" v0.107.79 1.26.6 .cache/servers/adguardhome-v0.107.79 AdGuardHome build_adguard

if command -v npm >/dev/null 2>&1; then
  if [ ! -d frontend/node_modules ] || [ frontend/package-lock.json -nt frontend/node_modules ]; then
    # `npm install` honours the lock; `npm ci` here rejects locks that lack other platforms' optional rollup binaries
    (cd frontend && npm install --no-audit --no-fund --loglevel=error && touch node_modules)
  fi
  (cd frontend && npm run --silent build >/dev/null)
else
  echo "kneeboard: npm is not installed, so the browser UI is not built (the API still runs); apt-get install nodejs npm" >&2
fi
