#!/usr/bin/env bash
# pytest in two lanes at once, each with its own stack (Postgres, Redis, DNS server, worker, API): the background lane
# (browser tests and tests that mostly wait; tests/conftest.py BACKGROUND) under SCHED_IDLE beside the foreground lane
# (the rest): it gets only CPU time the foreground leaves, so the foreground's measured figures are not spoiled. Either lane failing fails the run; the background lane's output is printed after the foreground's.
# Arguments go to both pytest runs. KB_TEST_LANES=1 runs everything in one pytest, as plain `.venv/bin/pytest` does.
set -uo pipefail
cd "$(dirname "$0")/.."
if [ "${KB_TEST_LANES:-2}" = 1 ]; then
    exec .venv/bin/pytest "$@"
fi
log=$(mktemp /tmp/kb-test-background.XXXXXX)
# As root, the background lane runs in a network namespace of its own, with only its loopback: Chromium fails its
# requests in flight with ERR_NETWORK_CHANGED whenever the host's addresses change, and the foreground's lab tests
# add and remove the lab's host-side address. Without root (or ip) it shares the host's network as before.
netns=()
ns=kbtest-bg-$$
if [ "$(id -u)" = 0 ] && command -v ip >/dev/null && ip netns add "$ns" 2>/dev/null; then
    ip -n "$ns" link set lo up
    netns=(ip netns exec "$ns")
fi
forget_netns() { [ ${#netns[@]} -gt 0 ] && ip netns del "$ns" 2>/dev/null; true; }
KB_TEST_LANE=background "${netns[@]}" chrt --idle 0 .venv/bin/pytest -p no:cacheprovider "$@" >"$log" 2>&1 &
background=$!
trap 'kill -INT "$background" 2>/dev/null; wait "$background"; rm -f "$log"; forget_netns' INT TERM
KB_TEST_LANE=foreground .venv/bin/pytest "$@"
foreground_rc=$?
wait "$background"
background_rc=$?
trap - INT TERM
forget_netns
echo
echo "=============== background lane (tests/conftest.py BACKGROUND, SCHED_IDLE${netns:+, netns $ns}): exit $background_rc ==============="
cat "$log"
rm -f "$log"
[ "$foreground_rc" -ne 0 ] && exit "$foreground_rc"
exit "$background_rc"
