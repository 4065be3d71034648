#!/usr/bin/env bash
# pytest in two lanes at once, each with its own stack (Postgres, Redis, DNS server, worker, API): the background lane
# (browser tests and tests that mostly wait; tests/conftest.py BACKGROUND) under SCHED_IDLE beside the foreground lane
# (the rest): it gets only CPU time the foreground leaves, so the foreground's measured figures are not spoiled. Either lane failing fails the run; the background lane's output is printed after the foreground's.
# Arguments go to both pytest runs. KB_TEST_LANES=1 runs everything in one pytest, as plain `.venv/bin/pytest` does.
#
# Before the lanes, scripts/check-commands.py checks that every external command the code and tests start comes from
# scripts/install-deps.sh (a second or two); the runner records every command the lanes start (KB_RECORD_COMMANDS) and
# the same check reads that record after them. KB_TEST_BUSY=1 (make test-busy) runs a CPU hog at normal priority
# beside the lanes (`stress-ng --cpu 1`, started and ended by its PID): the suite must pass on a busy host. Each lane's
# time is printed at the end.
set -uo pipefail
cd "$(dirname "$0")/.."
.venv/bin/python scripts/check-commands.py || exit 1
own_record=
if [ -z "${KB_RECORD_COMMANDS:-}" ]; then
    KB_RECORD_COMMANDS=$(mktemp /tmp/kb-test-commands.XXXXXX)
    own_record=$KB_RECORD_COMMANDS
fi
export KB_RECORD_COMMANDS
hog= busy=
if [ "${KB_TEST_BUSY:-0}" = 1 ]; then
    command -v stress-ng >/dev/null || { echo "kneeboard: KB_TEST_BUSY=1 needs stress-ng (scripts/install-deps.sh test)" >&2; exit 2; }
    stress-ng --cpu 1 --quiet &
    hog=$!
    busy="; beside stress-ng --cpu 1"
    echo "kneeboard: a busy host: stress-ng --cpu 1 (PID $hog) at normal priority beside the suite"
fi
# stress-ng's workers die with it (its own SIGTERM handler stops them)
end_hog() { [ -z "$hog" ] || { kill "$hog" 2>/dev/null; wait "$hog" 2>/dev/null; hog=; }; true; }
check_record() {
    .venv/bin/python scripts/check-commands.py --recorded "$KB_RECORD_COMMANDS"
    local rc=$?
    [ -z "$own_record" ] || rm -f "$own_record"
    return $rc
}
if [ "${KB_TEST_LANES:-2}" = 1 ]; then
    started=$SECONDS
    .venv/bin/pytest "$@"
    rc=$?
    end_hog
    echo "kneeboard: one lane: $(( SECONDS - started )) s (exit $rc)$busy"
    check_record || [ "$rc" -ne 0 ] || rc=1
    exit "$rc"
fi
log=$(mktemp /tmp/kb-test-background.XXXXXX)
times_fg=$(mktemp /tmp/kb-test-times-fg.XXXXXX) times_bg=$(mktemp /tmp/kb-test-times-bg.XXXXXX)  # JUnit XML: each file's seconds
# The background lane runs under SCHED_IDLE: whenever the foreground lane (and, on a busy host, anything else) wants
# both CPUs it gets none, so a test of it can wait several times its own length. Its per-test timeout (pytest.ini's
# --timeout=600) and its stack's start-up waits (KB_WAIT_SCALE: kneeboard/stack.py, tests/support/services.py) are
# scaled by KB_TEST_IDLE_SCALE: 2, or 3 beside the hog of KB_TEST_BUSY (its API did not listen within 30 s there).
scale=${KB_TEST_IDLE_SCALE:-$([ -n "$hog" ] && echo 3 || echo 2)}
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
started=$SECONDS
{
    KB_TEST_LANE=background KB_WAIT_SCALE=$scale "${netns[@]}" chrt --idle 0 .venv/bin/pytest -p no:cacheprovider --timeout=$(( 600 * scale )) --junitxml="$times_bg" "$@"
    rc=$?
    echo "$(( SECONDS - started ))" >"$log.seconds"
    exit $rc
} >"$log" 2>&1 &
background=$!
trap 'kill -INT "$background" 2>/dev/null; wait "$background"; rm -f "$log" "$log.seconds"; end_hog; forget_netns' INT TERM
KB_TEST_LANE=foreground .venv/bin/pytest --junitxml="$times_fg" "$@"
foreground_rc=$?
foreground_s=$(( SECONDS - started ))
wait "$background"
background_rc=$?
trap - INT TERM
end_hog
forget_netns
echo
echo "=============== background lane (tests/conftest.py BACKGROUND, SCHED_IDLE${netns:+, netns $ns}): exit $background_rc ==============="
cat "$log"
echo
echo "kneeboard: foreground lane ${foreground_s} s (exit $foreground_rc); background lane $(cat "$log.seconds" 2>/dev/null || echo '?') s (exit $background_rc, SCHED_IDLE, per-test timeout $(( 600 * scale )) s)$busy; both $(( SECONDS - started )) s"
rm -f "$log" "$log.seconds"
.venv/bin/python scripts/lane-times.py foreground="$times_fg" background="$times_bg"
rm -f "$times_fg" "$times_bg"
check_record
record_rc=$?
# pytest's 5 is "no test collected": a subset whose tests are all in the other lane
[ "$foreground_rc" = 5 ] && [ "$background_rc" != 5 ] && foreground_rc=0
[ "$background_rc" = 5 ] && [ "$foreground_rc" != 5 ] && background_rc=0
[ "$foreground_rc" -ne 0 ] && exit "$foreground_rc"
[ "$background_rc" -ne 0 ] && exit "$background_rc"
exit "$record_rc"
