"""The one process runner every tool shares: own process group, streamed lines, timeout, cancel.

A tool gets a process group of its own, never a session: with `kernel.sched_autogroup_enabled=1` every new session is a
new CPU scheduling group, and a tool in a session of its own shares the CPUs with a server on the same host group
against group instead of thread against thread (issue 34: dnsperf at 2.38 ms against 1.64 ms by hand). The group is
enough to stop the tool with its filter and children at once.

With RECORD_ENV (KB_RECORD_COMMANDS) naming a file, argv[0] of every process started here (and the command a wrapper
such as stdbuf runs) is appended to it, one a line (scripts/test-python.sh sets it so that scripts/check-commands.py can check the suite's commands against the
install step).
"""

from __future__ import annotations

import ctypes
import os
import shutil
import signal
import subprocess
import threading
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

log = logging.getLogger(__name__)
POLL_S = 0.1
TERM_WAIT_S = 1.0
KILL_WAIT_S = 5.0
RECORD_ENV = "KB_RECORD_COMMANDS"
FILTER_WAIT_S = 5.0


@dataclass
class RunOutcome:
    """What happened to one process: its output (bounded), exit code, and why it ended."""

    argv: list[str]
    stdout: str = ""
    stderr: str = ""
    exit_code: int | None = None
    started_at: datetime = field(default_factory=lambda: datetime.now(timezone.utc))
    ended_at: datetime | None = None
    timed_out: bool = False
    cancelled: bool = False
    killed: bool = False  # stopped, but still there after its stop wait: its group was sent SIGKILL
    error: str | None = None


class _BoundedText:
    """Keeps the head and the tail of a stream within a byte limit (summaries come last)."""

    def __init__(self, limit: int) -> None:
        self.limit, self.head, self.tail, self.size, self.dropped = limit, [], [], 0, 0
        self.tail_size = 0

    def add(self, line: str) -> None:
        """Keep a line: in the head while it has room, else in the rolling tail."""
        if self.size < self.limit // 4:
            self.head.append(line)
            self.size += len(line)
            return
        self.tail.append(line)
        self.tail_size += len(line)
        while self.tail_size > self.limit - self.size and self.tail:
            self.tail_size -= len(self.tail.pop(0))
            self.dropped += 1

    def text(self) -> str:
        """Head, a note of what was dropped, and tail."""
        gap = [f"[kneeboard: {self.dropped} lines omitted]\n"] if self.dropped else []
        return "".join(self.head + gap + self.tail)


def _pump(stream, sink: _BoundedText, on_line: Callable[[str], None] | None) -> None:
    for line in iter(stream.readline, ""):
        sink.add(line)
        if on_line is not None:
            try:
                on_line(line.rstrip("\n"))
            except Exception:  # noqa: BLE001 - a live-view hiccup must not lose the measurement
                pass
    stream.close()


def stop_group(proc: subprocess.Popen, first: signal.Signals = signal.SIGTERM, wait_s: float = TERM_WAIT_S) -> bool:
    """Signal the process group, then SIGKILL it if it is still there after `wait_s`; whether SIGKILL was sent."""
    for sig, wait in ((first, wait_s), (signal.SIGKILL, KILL_WAIT_S)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return sig == signal.SIGKILL
        try:
            proc.wait(timeout=wait)
            return sig == signal.SIGKILL
        except subprocess.TimeoutExpired:
            continue
    return True


_PR_SET_PDEATHSIG = 1
_PRCTL = ctypes.CDLL(None, use_errno=True).prctl  # looked up here: the child must not dlopen after fork


def _die_with_parent(parent: int) -> Callable[[], None]:
    """In the child, before exec: ask the kernel for SIGKILL when our parent dies, so a killed
    worker leaves no load running (and exit at once if the parent is already gone)."""

    def prepare() -> None:
        _PRCTL(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        if os.getppid() != parent:
            os._exit(1)

    return prepare


def start(argv: Sequence[str], *, cwd: Path | None = None, env: dict[str, str] | None = None,
          stdin=subprocess.DEVNULL, group: int = 0) -> subprocess.Popen:
    """Start argv (never through a shell) with piped text output; it dies with us.

    `group` 0: a new process group of its own, in our session (no new session, so no new scheduling
    autogroup; a second process can join the group); a pid: join that process group.
    """
    _record(argv)
    return subprocess.Popen(
        list(argv),
        stdin=stdin,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        errors="replace",
        bufsize=1,
        cwd=cwd,
        env={**os.environ, **(env or {})},
        process_group=group,
        preexec_fn=_die_with_parent(os.getpid()),  # noqa: PLW1509 - only prctl and getppid run before exec
    )


# wrapper → (options that take a value, positionals before the command): `nice -n 19 perf`, `chrt --idle 0 pytest`,
# `stdbuf -oL dnsperf`, `timeout 5 x`, `taskset -c 1 x`, `ip netns exec NS x`
WRAPPERS = {"nice": ({"-n", "--adjustment"}, 0), "stdbuf": ({"-i", "-o", "-e"}, 0), "chrt": (set(), 1),
            "timeout": ({"-s", "-k", "--signal", "--kill-after"}, 1), "taskset": ({"-c", "--cpu-list"}, 0),
            "ionice": ({"-c", "-n", "-p", "--class", "--classdata"}, 0), "env": (set(), 0)}  # fmt: skip


def commands(argv: Sequence[str | None]) -> list[str]:
    """The commands an argv starts: argv[0], and the command a wrapper runs (stdbuf, nice, chrt, timeout, taskset,
    ionice, env, `ip netns exec NS`); an element not known (None) ends the reading."""
    found: list[str] = []
    rest = list(argv)
    while rest and isinstance(rest[0], str):
        name, rest = rest[0], rest[1:]
        found.append(name)
        base = os.path.basename(name)
        if base == "ip" and rest[:2] == ["netns", "exec"]:
            rest = rest[3:]
            continue
        if base not in WRAPPERS:
            break
        valued, positionals = WRAPPERS[base]
        if base == "taskset" and not (rest and rest[0] in valued):
            positionals = 1  # `taskset MASK cmd`
        while rest and isinstance(rest[0], str) and (rest[0].startswith("-") or (base == "env" and "=" in rest[0])):
            rest = rest[2:] if rest[0] in valued else rest[1:]
        rest = rest[positionals:]
    return found


def _record(argv: Sequence[str]) -> None:
    """Append the commands of argv (argv[0], and a wrapper's command) to the file RECORD_ENV names, when it is set."""
    path = os.environ.get(RECORD_ENV)
    if not path or not argv:
        return
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)  # one short write: whole lines
        try:
            os.write(fd, "".join(f"{name}\n" for name in commands(argv)).encode())
        finally:
            os.close(fd)
    except OSError as exc:  # a record is the test run's evidence, never a reason not to run the tool
        log.warning("argv[0] not recorded in %s: %s", path, exc)


def _cannot_start(argv: Sequence[str], exc: OSError) -> str:
    missing = isinstance(exc, FileNotFoundError) and shutil.which(argv[0]) is None
    return f"{argv[0]} is not installed (not found on PATH)" if missing else f"{argv[0]} cannot be started: {exc}"


def _start_pipeline(argv: Sequence[str], filter_argv: Sequence[str] | None, cwd: Path | None,
                    env: dict[str, str] | None) -> list[subprocess.Popen]:
    """The tool, and the filter reading its stdout, in one new process group; OSError names neither."""
    tool = start(argv, cwd=cwd, env=env)
    if filter_argv is None:
        return [tool]
    try:
        piped = start(filter_argv, cwd=cwd, env=env, stdin=tool.stdout, group=tool.pid)
    except OSError as exc:
        stop_group(tool, signal.SIGKILL)
        raise _FilterError(_cannot_start(filter_argv, exc)) from exc
    tool.stdout.close()  # the filter holds the pipe now: it sees the end when the tool exits
    return [tool, piped]


class _FilterError(OSError):
    """The filter of a pipeline could not be started (the tool was stopped again)."""


def run(
    argv: Sequence[str],
    *,
    timeout_s: float,
    on_line: Callable[[str], None] | None = None,
    should_cancel: Callable[[], bool] | None = None,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    output_limit: int = 1_048_576,
    stop_signal: signal.Signals = signal.SIGTERM,
    line_buffered: bool = False,
    pipe_through: Sequence[str] | None = None,
    stop_wait_s: float = TERM_WAIT_S,
) -> RunOutcome:
    """Run argv to the end, a timeout, or a cancel; stdout lines go to `on_line` as they come.

    `line_buffered` runs it under `stdbuf -oL` (when coreutils' stdbuf is there), so a tool whose
    stdio buffers whole blocks on a pipe hands over each line as it prints it. `pipe_through` is
    the argv of a filter fed the tool's stdout by a pipe (no shell): its stdout is what we read,
    both share one process group, both stderrs are kept, and the exit code is the tool's. The
    filter is ours and flushes its own lines, so `line_buffered` is not applied to the tool then
    (dnsperf -v under -oL writes every answer on its own and loses half its top rate). `stop_wait_s`: how long a
    cancelled or timed-out tool has after `stop_signal` before SIGKILL (outcome.killed says it came to that).
    """
    if line_buffered and not pipe_through and shutil.which(argv[0]) and shutil.which("stdbuf"):
        argv = ["stdbuf", "-oL", *argv]
    outcome = RunOutcome(argv=[*argv, "|", *pipe_through] if pipe_through else list(argv))
    try:
        procs = _start_pipeline(argv, pipe_through, cwd, env)
    except _FilterError as exc:
        outcome.error = str(exc)
    except OSError as exc:
        outcome.error = _cannot_start(argv, exc)
    if outcome.error:
        outcome.ended_at = datetime.now(timezone.utc)
        return outcome
    tool = procs[0]
    out, errs = _BoundedText(output_limit), [_BoundedText(output_limit // 4) for _ in procs]
    pumps = [threading.Thread(target=_pump, args=(procs[-1].stdout, out, on_line), daemon=True)]
    pumps += [threading.Thread(target=_pump, args=(p.stderr, err, None), daemon=True) for p, err in zip(procs, errs)]
    for pump in pumps:
        pump.start()
    try:
        _watch(tool, outcome, timeout_s, should_cancel, stop_signal, stop_wait_s)
    except BaseException:  # a failing cancel check must not leave the tool running
        stop_group(tool, stop_signal, stop_wait_s)
        _finish_filters(procs[1:])
        raise
    tool.wait()
    _finish_filters(procs[1:])
    for pump in pumps:
        pump.join(timeout=5)
    for proc, err in zip(procs[1:], errs[1:]):
        if proc.returncode:
            err.add(f"[kneeboard: {pipe_through[0]} exited with code {proc.returncode}]\n")
    outcome.exit_code = tool.returncode
    outcome.stdout, outcome.stderr = out.text(), "".join(err.text() for err in errs)
    outcome.ended_at = datetime.now(timezone.utc)
    if outcome.timed_out:
        outcome.error = f"{argv[0]} did not finish within {timeout_s:g} s and was stopped"
    return outcome


def _watch(proc: subprocess.Popen, outcome: RunOutcome, timeout_s: float, should_cancel, stop_signal: signal.Signals,
           stop_wait_s: float) -> None:
    """Wait for the process; on a cancel or the timeout, stop its whole group (and say which)."""
    deadline = time.monotonic() + timeout_s
    while proc.poll() is None:
        if should_cancel is not None and should_cancel():
            outcome.cancelled = True
        elif time.monotonic() > deadline:
            outcome.timed_out = True
        if outcome.cancelled or outcome.timed_out:
            asked = time.monotonic()
            outcome.killed = stop_group(proc, stop_signal, stop_wait_s)
            log.info("%s stopped (%s%s) in %.2f s", outcome.argv[0], "cancel" if outcome.cancelled else "timeout",
                     ", SIGKILL after its stop wait" if outcome.killed else "", time.monotonic() - asked)
            return
        time.sleep(POLL_S)


def _finish_filters(filters: list[subprocess.Popen]) -> None:
    """A filter ends when the tool's output does; one still there after FILTER_WAIT_S is killed."""
    for proc in filters:
        try:
            proc.wait(timeout=FILTER_WAIT_S)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
