#!/usr/bin/env bash
# pytest in lanes at once, each with its own stack (Postgres, Redis, DNS server, worker, API) (tests/conftest.py
# lane_of). By default two: the foreground lane (everything that measures: the lab's tests, which take turns on the one
# lab, and the loopback's) and the background lane (browser tests, tests that mostly wait, the pure unit tests;
# tests/conftest.py BACKGROUND) under SCHED_IDLE, so it gets only CPU time the foreground leaves and the foreground's
# figures are not spoiled. KB_TEST_LANES=3 splits the foreground in two side by side at normal priority, the lab lane
# and the loopback lane (in a network namespace of its own), each a busy host to the other: 20-21 min of pytest here,
# but their measuring tests are not yet steady beside each other (README). KB_TEST_LANES=1 runs
# everything in one pytest, as plain `.venv/bin/pytest` does. Any lane failing fails the run; the first lane's output is
# printed as it runs, the others' after it. Arguments go to every pytest run.
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
# As root, the background and loopback lanes run each in a network namespace of its own, with only its loopback:
# Chromium fails its requests in flight with ERR_NETWORK_CHANGED whenever the host's addresses change, and the lab
# lane adds and removes the lab's host-side address. Without root (or ip) they share the host's network as before.
own_netns() {  # the prefix that runs a command in a new namespace named $1, or nothing
    if [ "$(id -u)" = 0 ] && command -v ip >/dev/null && ip netns add "$1" 2>/dev/null; then
        ip -n "$1" link set lo up
        echo "ip netns exec $1"
    fi
}
ns=kbtest-bg-$$ loop_ns=kbtest-lo-$$
read -ra netns <<<"$(own_netns "$ns")"
forget_netns() { ip netns del "$ns" 2>/dev/null; ip netns del "$loop_ns" 2>/dev/null; true; }
started=$SECONDS
{
    KB_TEST_LANE=background KB_WAIT_SCALE=$scale "${netns[@]}" chrt --idle 0 .venv/bin/pytest -p no:cacheprovider --timeout=$(( 600 * scale )) --junitxml="$times_bg" "$@"
    rc=$?
    echo "$(( SECONDS - started ))" >"$log.seconds"
    exit $rc
} >"$log" 2>&1 &
background=$!
loopback= loop_log= times_loop=
if [ "${KB_TEST_LANES:-2}" = 3 ]; then
    loop_log=$(mktemp /tmp/kb-test-loopback.XXXXXX) times_loop=$(mktemp /tmp/kb-test-times-loopback.XXXXXX)
    {
        read -ra loop_netns <<<"$(own_netns "$loop_ns")"
        KB_TEST_LANE=loopback "${loop_netns[@]}" .venv/bin/pytest -p no:cacheprovider --junitxml="$times_loop" "$@"
        rc=$?
        echo "$(( SECONDS - started ))" >"$loop_log.seconds"
        exit $rc
    } >"$loop_log" 2>&1 &
    loopback=$!
fi
trap 'kill -INT "$background" $loopback 2>/dev/null; wait "$background" $loopback; rm -f "$log" "$log.seconds" ${loop_log:+"$loop_log" "$loop_log.seconds"}; end_hog; forget_netns' INT TERM
first_lane=$([ -n "$loopback" ] && echo lab || echo foreground)
KB_TEST_LANE=$first_lane .venv/bin/pytest --junitxml="$times_fg" "$@"
foreground_rc=$?
foreground_s=$(( SECONDS - started ))
loopback_rc=0
if [ -n "$loopback" ]; then
    wait "$loopback"
    loopback_rc=$?
fi
wait "$background"
background_rc=$?
trap - INT TERM
end_hog
forget_netns
if [ -n "$loopback" ]; then
    echo
    echo "=============== loopback lane (tests/conftest.py lane_of: no lab, normal priority, its own netns as root): exit $loopback_rc ==============="
    cat "$loop_log"
fi
echo
echo "=============== background lane (tests/conftest.py BACKGROUND, SCHED_IDLE${netns:+, netns $ns}): exit $background_rc ==============="
cat "$log"
echo
loop_said=${loopback:+"; loopback lane $(cat "$loop_log.seconds" 2>/dev/null || echo '?') s (exit $loopback_rc)"}
echo "kneeboard: $first_lane lane ${foreground_s} s (exit $foreground_rc)${loop_said}; background lane $(cat "$log.seconds" 2>/dev/null || echo '?') s (exit $background_rc, SCHED_IDLE, per-test timeout $(( 600 * scale )) s)$busy; all $(( SECONDS - started )) s"
rm -f "$log" "$log.seconds" ${loop_log:+"$loop_log" "$loop_log.seconds"}
.venv/bin/python scripts/lane-times.py "$first_lane=$times_fg" ${times_loop:+"loopback=$times_loop"} background="$times_bg"
rm -f "$times_fg" "$times_bg" ${times_loop:+"$times_loop"}
check_record
record_rc=$?
# pytest's 5 is "no test collected": a subset whose tests are all in other lanes; the run fails only when no lane ran one
rcs=("$foreground_rc" "$loopback_rc" "$background_rc")
[ -z "$loopback" ] && rcs=("$foreground_rc" "$background_rc")
all_empty=1
for rc in "${rcs[@]}"; do [ "$rc" != 5 ] && all_empty=0; done
for rc in "${rcs[@]}"; do
    [ "$rc" = 5 ] && [ "$all_empty" = 0 ] && continue
    [ "$rc" -ne 0 ] && exit "$rc"
done
exit "$record_rc"
