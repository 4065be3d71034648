"""`perf record` over a point's steady window and `perf script` after it, at idle priority: argv from typed values
(never a shell, never a path from a plan: the data file is one Kneeboard names in the point's workdir), each run in a
process group of its own by the shared runner and stopped by its PID. Knows nothing of web or database."""

from __future__ import annotations

import signal
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from kneeboard.profiling.folding import Folded, StackFolder
from kneeboard.profiling.schemas import CpuProfileSettings
from kneeboard.tools import runner

DATA_FILE = "cpu-profile.perf.data"  # in the point's workdir; removed once folded
SCRIPT_FIELDS = "comm,tid,time,ip,sym,dso"  # what folding.StackFolder reads
MAX_WINDOW_S = 600.0  # a longer point is profiled over its first MAX_WINDOW_S of steady load
MIN_WINDOW_S = 1.0  # a steady window shorter than this is not profiled
END_MARGIN_S = 1.0  # the recording stops this long before the load's planned end
MAX_DATA = "256M"  # perf's own bound on the data file (--max-size)
LEAD_S = 1.0  # perf starts this long before the window (it reads every process's mappings before it samples)
FOLD_TIMEOUT_S = 300.0
STOP_WAIT_S = 15.0
_DENIED = ("perf_event_paranoid", "Access to performance monitoring", "No permission", "Permission denied", "CAP_PERFMON")


def record_argv(settings: CpuProfileSettings, data: Path) -> list[str]:
    """`perf record` of every CPU's clock at the plan's frequency, with call graphs (frame pointers), into `data`;
    samples stamped with the wall clock (-k realtime), so that the point's window selects them."""
    return ["perf", "record", "-e", "cpu-clock", "-F", str(int(settings.frequency_hz)), "-a", "-g", "-k", "realtime",
            "--max-size", MAX_DATA, "-o", str(data)]  # fmt: skip


def script_argv(data: Path) -> list[str]:
    """`perf script` of `data` at idle priority (nice 19), symbols resolved here, the fields the folder reads."""
    return ["nice", "-n", "19", "perf", "script", "-F", SCRIPT_FIELDS, "-i", str(data)]


def window(duration_s: float, warmup_s: float) -> tuple[float, float] | None:
    """(start after the point's start, length) of the steady window a CPU profile covers: after the warm-up, ending
    END_MARGIN_S before the load does, at most MAX_WINDOW_S; None when that leaves less than MIN_WINDOW_S."""
    length = min(MAX_WINDOW_S, duration_s - warmup_s - END_MARGIN_S)
    return (warmup_s, length) if length >= MIN_WINDOW_S else None


def _failure(outcome: runner.RunOutcome) -> str:
    """Why perf gave nothing, in one line (not permitted, not installed, or its own message)."""
    text = f"{outcome.error or ''}\n{outcome.stderr or ''}"
    if any(sign in text for sign in _DENIED):
        return ("perf is not permitted to sample every CPU here: run the worker (or the observer) as root, or give perf CAP_PERFMON and "
                "lower kernel.perf_event_paranoid (docs/profiling.md)")  # fmt: skip
    if outcome.error:
        return outcome.error
    last = [line.strip() for line in (outcome.stderr or "").splitlines() if line.strip()]
    return f"perf exited with code {outcome.exit_code}" + (f": {last[-1]}" if last else "")


@dataclass
class Recording:
    """One point's `perf record` over the window [start() + start_s, + length_s] (wall clock: `since`, `until`): perf
    starts up to LEAD_S before it and is stopped at its end, or at stop(); the fold keeps the window's samples."""

    settings: CpuProfileSettings
    workdir: Path
    start_s: float
    length_s: float
    since: float | None = None  # the window, wall clock
    until: float | None = None
    began: float | None = None  # wall clock when perf was started
    outcome: runner.RunOutcome | None = None
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    @property
    def data(self) -> Path:
        """The data file Kneeboard names for this point."""
        return self.workdir / DATA_FILE

    def start(self) -> None:
        """Start the timer thread (the load starts now)."""
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        now, lead = time.time(), min(LEAD_S, self.start_s)
        self.since, self.until = now + self.start_s, now + self.start_s + self.length_s
        if self._stop.wait(self.start_s - lead):
            return  # the point ended before its steady window began
        self.began = time.time()
        deadline = time.monotonic() + (self.until - self.began)
        self.outcome = runner.run(record_argv(self.settings, self.data), timeout_s=self.length_s + lead + 30,
                                  should_cancel=lambda: self._stop.is_set() or time.monotonic() >= deadline,
                                  cwd=self.workdir, stop_signal=signal.SIGINT, output_limit=65_536)  # fmt: skip

    def stop(self) -> str | None:
        """Stop perf (SIGINT to its group: it writes its data and exits) if it is still recording; why there is no
        data, or None."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=self.length_s + STOP_WAIT_S + 30)
        if self.outcome is None:
            return "the point ended before its steady window began" if self.began is None else "perf did not stop"
        if self.data.is_file() and self.data.stat().st_size > 0 and not self.outcome.error:
            return None
        return _failure(self.outcome)


@dataclass
class FoldOutcome:
    """The folded stacks, or why there are none."""

    folded: Folded | None
    error: str | None = None
    seconds: float = 0.0


def fold_recording(recording: Recording) -> FoldOutcome:
    """`perf script` of a recording at idle priority, its window's lines folded for the plan's process as they
    stream; the data file is removed after."""
    data = recording.data
    folder = StackFolder(recording.settings.process, recording.since, recording.until)
    started = time.monotonic()
    try:
        outcome = runner.run(script_argv(data), timeout_s=FOLD_TIMEOUT_S, on_line=folder.feed, output_limit=65_536)
    finally:
        data.unlink(missing_ok=True)
    folded = folder.close()
    if outcome.error or (outcome.exit_code and not folded.all_samples):
        return FoldOutcome(None, _failure(outcome), time.monotonic() - started)
    return FoldOutcome(folded, None, time.monotonic() - started)
