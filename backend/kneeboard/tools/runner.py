"""The one process runner every tool shares: own process group, streamed lines, timeout, cancel."""

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


def stop_group(proc: subprocess.Popen, first: signal.Signals = signal.SIGTERM, wait_s: float = TERM_WAIT_S) -> None:
    """Signal the process group, then SIGKILL it if it is still there after `wait_s`."""
    for sig, wait in ((first, wait_s), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


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


def start(argv: Sequence[str], *, cwd: Path | None = None, env: dict[str, str] | None = None) -> subprocess.Popen:
    """Start argv (never through a shell) in a new process group with piped text output; it dies with us."""
    return subprocess.Popen(
        list(argv),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        errors="replace",
        bufsize=1,
        cwd=cwd,
        env={**os.environ, **(env or {})},
        start_new_session=True,
        preexec_fn=_die_with_parent(os.getpid()),  # noqa: PLW1509 - only prctl and getppid run before exec
    )


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
) -> RunOutcome:
    """Run argv to the end, a timeout, or a cancel; stdout lines go to `on_line` as they come.

    `line_buffered` runs it under `stdbuf -oL` (when coreutils' stdbuf is there), so a tool whose
    stdio buffers whole blocks on a pipe hands over each line as it prints it.
    """
    if line_buffered and shutil.which(argv[0]) and shutil.which("stdbuf"):
        argv = ["stdbuf", "-oL", *argv]
    outcome = RunOutcome(argv=list(argv))
    try:
        proc = start(argv, cwd=cwd, env=env)
    except OSError as exc:
        missing = isinstance(exc, FileNotFoundError) and shutil.which(argv[0]) is None
        outcome.error = f"{argv[0]} is not installed (not found on PATH)" if missing else f"{argv[0]} cannot be started: {exc}"
    if outcome.error:
        outcome.ended_at = datetime.now(timezone.utc)
        return outcome
    out, err = _BoundedText(output_limit), _BoundedText(output_limit // 4)
    pumps = [
        threading.Thread(target=_pump, args=(proc.stdout, out, on_line), daemon=True),
        threading.Thread(target=_pump, args=(proc.stderr, err, None), daemon=True),
    ]
    for pump in pumps:
        pump.start()
    deadline = time.monotonic() + timeout_s
    while proc.poll() is None:
        if should_cancel is not None and should_cancel():
            outcome.cancelled = True
        elif time.monotonic() > deadline:
            outcome.timed_out = True
        if outcome.cancelled or outcome.timed_out:
            asked = time.monotonic()
            stop_group(proc, stop_signal)
            log.info("%s stopped (%s) in %.2f s", argv[0], "cancel" if outcome.cancelled else "timeout", time.monotonic() - asked)
            break
        time.sleep(POLL_S)
    proc.wait()
    for pump in pumps:
        pump.join(timeout=5)
    outcome.exit_code = proc.returncode
    outcome.stdout, outcome.stderr = out.text(), err.text()
    outcome.ended_at = datetime.now(timezone.utc)
    if outcome.timed_out:
        outcome.error = f"{argv[0]} did not finish within {timeout_s:g} s and was stopped"
    return outcome
