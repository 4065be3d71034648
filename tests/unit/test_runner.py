"""The shared process runner, on real processes."""

from __future__ import annotations

import os
import sys
import time

from kneeboard.tools import runner

PY = sys.executable


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().split()[2] != "Z"


def test_lines_stream_while_the_process_runs():
    seen = []
    script = "import time\nfor i in range(3):\n    print(i, flush=True); time.sleep(0.3)"
    outcome = runner.run([PY, "-c", script], timeout_s=10, on_line=lambda line: seen.append((line, time.monotonic())))
    assert [line for line, _ in seen] == ["0", "1", "2"] and outcome.exit_code == 0
    assert seen[-1][1] - seen[0][1] > 0.4, "lines arrive as printed, not all at the end"
    assert outcome.stdout == "0\n1\n2\n" and outcome.error is None


def test_timeout_kills_the_whole_group():
    script = "import subprocess, sys, time\np = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\nprint(p.pid, flush=True)\ntime.sleep(60)"
    started = time.monotonic()
    outcome = runner.run([PY, "-c", script], timeout_s=1)
    assert outcome.timed_out and "did not finish within 1 s" in outcome.error
    assert time.monotonic() - started < 5
    child = int(outcome.stdout.split()[0])
    time.sleep(0.2)
    assert not alive(child), "the grandchild in the same group is gone too"


def test_cancel_stops_a_process_that_ignores_sigterm():
    script = "import signal, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\nprint('ready', flush=True)\ntime.sleep(60)"
    asked = []
    outcome = runner.run([PY, "-c", script], timeout_s=30, should_cancel=lambda: bool(asked) or asked.append(1) is None and False)
    assert outcome.cancelled
    started = time.monotonic()
    outcome = runner.run([PY, "-c", script], timeout_s=30, should_cancel=lambda: time.monotonic() - started > 0.5)
    assert outcome.cancelled and time.monotonic() - started < 2.0 and outcome.exit_code == -9


def test_missing_binary_is_a_clear_error():
    outcome = runner.run(["kneeboard-no-such-tool", "-x"], timeout_s=5)
    assert outcome.exit_code is None and outcome.error == "kneeboard-no-such-tool is not installed (not found on PATH)"


def test_output_is_bounded_and_keeps_head_and_tail():
    script = "print('HEAD')\nfor i in range(20000): print('x' * 50)\nprint('TAIL')"
    outcome = runner.run([PY, "-c", script], timeout_s=30, output_limit=100_000)
    assert len(outcome.stdout) < 110_000
    assert outcome.stdout.startswith("HEAD\n") and outcome.stdout.endswith("TAIL\n") and "lines omitted" in outcome.stdout


UPPER = [PY, "-c", "import sys\nfor line in sys.stdin: print(line.upper(), end='', flush=True)\nprint('filter done', file=sys.stderr)"]


def test_a_pipeline_reads_the_filter_and_keeps_the_tool_exit_code():
    seen = []
    script = "import sys, time\nfor i in range(3):\n    print('line', i, flush=True); time.sleep(0.2)\nprint('tool note', file=sys.stderr)\nsys.exit(3)"
    outcome = runner.run([PY, "-c", script], timeout_s=10, on_line=lambda line: seen.append((line, time.monotonic())), pipe_through=UPPER)
    assert [line for line, _ in seen] == ["LINE 0", "LINE 1", "LINE 2"] and seen[-1][1] - seen[0][1] > 0.1, "lines stream through (0.4 s apart as printed; all at once if buffered)"
    assert outcome.exit_code == 3 and outcome.error is None
    assert "tool note" in outcome.stderr and "filter done" in outcome.stderr
    assert outcome.argv == [PY, "-c", script, "|", *UPPER], "the evidence names both processes"


def test_a_pipeline_shares_one_process_group_that_a_timeout_stops():
    script = "import os, time\nprint(os.getpgid(0), flush=True)\ntime.sleep(60)"
    report = [PY, "-c", "import os, sys\nprint('filter group', os.getpgid(0), flush=True)\nfor line in sys.stdin: print(line, end='', flush=True)"]
    started = time.monotonic()
    outcome = runner.run([PY, "-c", script], timeout_s=1, pipe_through=report)
    assert outcome.timed_out and time.monotonic() - started < 5
    lines = outcome.stdout.split()
    assert lines[:2] == ["filter", "group"] and lines[2] == lines[3] != str(os.getpgid(0)), "one new group for both"


def test_a_missing_filter_is_a_clear_error_and_the_tool_is_stopped():
    outcome = runner.run([PY, "-c", "import time; time.sleep(60)"], timeout_s=30, pipe_through=["kneeboard-no-such-filter"])
    assert outcome.exit_code is None and outcome.error == "kneeboard-no-such-filter is not installed (not found on PATH)"
