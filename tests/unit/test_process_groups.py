"""Issue 34: tools, their filters and the servers Kneeboard starts get a process group of their own in the starter's
session, never a session of their own (a new session is a new scheduling autogroup); stopping still ends the group."""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

import pytest

from kneeboard import stack
from kneeboard.lab import processes
from kneeboard.lab.dns import start_unbound, unbound_binary
from kneeboard.tools import runner

PY = sys.executable


def who(label: str) -> str:
    """Python that prints `who LABEL pid sid pgid`."""
    return f"import os\nprint('who', {label!r}, os.getpid(), os.getsid(0), os.getpgid(0), flush=True)\n"


RELAY = "import sys\nfor line in sys.stdin: print(line, end='', flush=True)"


def whos(text: str) -> dict[str, tuple[int, int, int]]:
    """LABEL → (pid, sid, pgid) of every process that said who it is."""
    return {line.split()[1]: tuple(map(int, line.split()[2:5])) for line in text.splitlines() if line.startswith("who ")}


def gone(pid: int, within_s: float = 5.0) -> bool:
    """True once pid has ended (a zombie counts as ended)."""
    deadline = time.monotonic() + within_s
    while processes.start_time(pid) is not None:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_a_tool_and_its_filter_share_our_session_in_a_group_of_their_own():
    outcome = runner.run([PY, "-c", who("tool")], timeout_s=10, pipe_through=[PY, "-c", who("filter") + RELAY])
    seen = whos(outcome.stdout)
    assert outcome.exit_code == 0 and set(seen) == {"tool", "filter"}, outcome
    for pid, sid, _ in seen.values():
        assert sid == os.getsid(0) != pid, "in the worker's session (no new scheduling autogroup), not a session leader"
    assert seen["tool"][2] == seen["filter"][2] == seen["tool"][0] != os.getpgid(0), "one process group of their own, led by the tool"

    alone = whos(runner.run([PY, "-c", who("tool")], timeout_s=10).stdout)["tool"]
    assert alone[1] == os.getsid(0) and alone[2] == alone[0] != os.getpgid(0), "without a filter too"


def test_cancel_ends_the_whole_group_filter_and_grandchildren_included():
    script = who("tool") + f"import subprocess, sys, time\nsubprocess.Popen([sys.executable, '-c', {who('child') + 'import time; time.sleep(60)'!r}])\n"
    script += "time.sleep(60)"
    relay = [PY, "-c", who("filter") + RELAY]
    seen: list[str] = []
    outcome = runner.run([PY, "-c", script], timeout_s=30, on_line=seen.append, pipe_through=relay,
                         should_cancel=lambda: len([s for s in seen if s.startswith("who ")]) >= 3)  # fmt: skip
    pids = [w[0] for w in whos("\n".join(seen)).values()]
    assert outcome.cancelled and len(pids) == 3, seen
    assert all(gone(pid) for pid in pids), "tool, filter and the tool's own child all ended with the group"


def test_a_lab_server_is_a_group_leader_in_our_session_and_stops_by_pid(tmp_path):
    proc = processes.spawn([PY, "-c", "import time; time.sleep(60)"], tmp_path / "server.log")
    try:
        assert os.getsid(proc.pid) == os.getsid(0) and os.getpgid(proc.pid) == proc.pid != os.getpgid(0)
    finally:
        processes.stop(proc.pid, processes.start_time(proc.pid))
    assert gone(proc.pid)


@pytest.mark.skipif(unbound_binary() is None, reason="unbound is not installed")
def test_unbound_is_not_a_session_leader_and_stack_stop_ends_its_group(tmp_path):
    proc = start_unbound("127.0.0.1", stack.free_port(), tmp_path / "dns")
    try:
        assert os.getsid(proc.pid) == os.getsid(0) != proc.pid, "in the starter's session"
        assert os.getpgid(proc.pid) == proc.pid != os.getpgid(0), "a process group of its own (killpg by its pid works)"
    finally:
        stack.stop(proc)
    assert proc.returncode is not None and gone(proc.pid)


def test_a_terminal_interrupt_to_our_group_does_not_reach_a_server(tmp_path):
    """Ctrl-C goes to the terminal's foreground group, ours: a server in its own group keeps running for `stop`."""
    child = Path(tmp_path / "child.py")
    # SIG_DFL before the pid is printed: a shell's background job starts with SIGINT ignored, and an interrupt sent
    # between the print and the reset would be ignored
    child.write_text("import os, signal, sys, time\nsignal.signal(signal.SIGINT, signal.SIG_DFL)\nsys.path[:0] = " + repr(sys.path)
                     + "\nfrom kneeboard.lab import processes\n"
                     f"p = processes.spawn([{PY!r}, '-c', 'import time; time.sleep(60)'], __import__('pathlib').Path({str(tmp_path)!r}) / 's.log')\n"
                     "print(p.pid, flush=True)\ntime.sleep(60)\n")  # fmt: skip
    starter = runner.start([PY, str(child)])
    server = int(starter.stdout.readline())
    try:
        os.killpg(starter.pid, signal.SIGINT)  # what a terminal does to its foreground group
        assert starter.wait(timeout=10) == -signal.SIGINT
        assert processes.start_time(server) is not None, "the server did not get the interrupt"
    finally:
        processes.stop(server, None)
    assert gone(server)
