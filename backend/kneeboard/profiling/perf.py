"""`perf record` over a point's steady window and `perf script` after it, at idle priority: argv from typed values
(never a shell, never a path from a plan: the data file is one Kneeboard names in the point's workdir), each run in a
process group of its own by the shared runner and stopped by its PID. Knows nothing of web or database.

perf is stopped the way it asks to be: SIGINT, then STOP_WAIT_S of its own to finish writing its data file before any
SIGKILL (issue 48: with the runner's 1 s, a busy host's perf was killed mid-write and `perf script` refused the cut
file). A file perf did not finish (killed, a failing exit, or a header that says no data was written) is a warning
naming why and is never handed to `perf script`."""

from __future__ import annotations

import signal
import struct
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from kneeboard.profiling.folding import Folded, StackFolder
from kneeboard.cpu_profile_setting import CpuProfileSettings
from kneeboard.tools import runner

DATA_FILE = "cpu-profile.perf.data"  # in the point's workdir; removed once folded
SCRIPT_FIELDS = "comm,tid,time,ip,sym,dso"  # what folding.StackFolder reads
MAX_WINDOW_S = 600.0  # a longer point is profiled over its first MAX_WINDOW_S of steady load
MIN_WINDOW_S = 1.0  # a steady window shorter than this is not profiled
END_MARGIN_S = 1.0  # the recording stops this long before the load's planned end
MAX_DATA = "256M"  # perf's own bound on the data file (--max-size)
LEAD_S = 1.0  # perf starts this long before the window (it reads every process's mappings before it samples)
FOLD_TIMEOUT_S = 300.0
# After SIGINT perf flushes its buffers and writes its header; measured beside `stress-ng --cpu 2` and 300 idle processes
# on 2 cores, 8 s at 99 Hz: 0.15-1.12 s with build-ids, 0.08-0.12 s with --no-buildid (256 MiB, MAX_DATA, written at
# even 20 MB/s fits too). Long enough for a loaded host, short enough that a hung perf does not hold the point.
STOP_WAIT_S = 20.0
FINISHED = (0, -signal.SIGINT)  # perf record's exit once its file is written: it re-raises the SIGINT it was stopped by
MAGIC = b"PERFILE2"
_HEADER = struct.Struct("<8sQQ16sQQ")  # magic, header size, attr size, attrs section, data section (offset, size)
_DENIED = ("perf_event_paranoid", "Access to performance monitoring", "No permission", "Permission denied", "CAP_PERFMON")


def record_argv(settings: CpuProfileSettings, data: Path) -> list[str]:
    """`perf record` of every CPU's clock at the plan's frequency, with call graphs (frame pointers), into `data`;
    samples stamped with the wall clock (-k realtime), so that the point's window selects them. No build-ids, neither in
    the file nor in ~/.debug: `perf script` runs here, beside the binaries, and without them perf's exit is quick."""
    return ["perf", "record", "-e", "cpu-clock", "-F", str(int(settings.frequency_hz)), "-a", "-g", "-k", "realtime",
            "--no-buildid", "--no-buildid-cache", "--max-size", MAX_DATA, "-o", str(data)]  # fmt: skip


def script_argv(data: Path, idle: bool = True) -> list[str]:
    """`perf script` of `data`, symbols resolved here, the fields the folder reads: at idle priority (nice 19) on a
    host that goes on serving (an observer's, the server's own), else at the caller's."""
    return [*(["nice", "-n", "19"] if idle else []), "perf", "script", "-F", SCRIPT_FIELDS, "-i", str(data)]


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


def header_problem(data: Path) -> str | None:
    """Why `data` is not a perf data file perf finished (perf writes its data section's size last, at its exit), or
    None when its header is whole."""
    try:
        with data.open("rb") as stream:
            head, size = stream.read(_HEADER.size), data.stat().st_size
    except OSError as exc:
        return f"no data file ({exc.strerror})"
    if len(head) < _HEADER.size or head[:8] != MAGIC:
        return "not a perf data file (no PERFILE2 header)"
    _, _, _, _, offset, length = _HEADER.unpack(head)
    if length == 0:
        return "its header says no data was written (perf stopped before it finished the file)"
    if offset + length > size:
        return f"it is shorter ({size:,} bytes) than its header says ({offset + length:,})"
    return None


def unfinished(outcome: runner.RunOutcome, data: Path) -> str | None:
    """Why perf did not finish `data` (so that it must not go to `perf script`), or None when it did."""
    code = outcome.exit_code
    if outcome.killed:
        return f"perf was killed: it had not finished writing its data file {STOP_WAIT_S:g} s after SIGINT"
    if code is not None and code < 0 and code not in FINISHED:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"perf was killed by {name} before it finished writing its data file"
    if outcome.error or code not in FINISHED:
        return _failure(outcome)
    why = header_problem(data)
    return f"perf's data file is unfinished: {why}" if why else None


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
                                  cwd=self.workdir, stop_signal=signal.SIGINT, stop_wait_s=STOP_WAIT_S,
                                  output_limit=65_536)  # fmt: skip

    def stop(self) -> str | None:
        """Stop perf (SIGINT to its group, then STOP_WAIT_S for it to write its data and exit) if it is still
        recording; why there is no finished data file, or None."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=self.length_s + LEAD_S + STOP_WAIT_S + runner.KILL_WAIT_S + 30)
        if self.outcome is None:
            return "the point ended before its steady window began" if self.began is None else "perf did not stop"
        return unfinished(self.outcome, self.data)


@dataclass
class FoldOutcome:
    """The folded stacks, or why there are none."""

    folded: Folded | None
    error: str | None = None
    seconds: float = 0.0


def fold_recording(recording: Recording, idle: bool = True) -> FoldOutcome:
    """`perf script` of a recording (at idle priority unless `idle` is False: script_argv), its window's lines folded
    for the plan's process as they stream; the data file is removed after."""
    data = recording.data
    folder = StackFolder(recording.settings.process, recording.since, recording.until)
    started = time.monotonic()
    try:
        outcome = runner.run(script_argv(data, idle), timeout_s=FOLD_TIMEOUT_S, on_line=folder.feed, output_limit=65_536)
    finally:
        data.unlink(missing_ok=True)
    folded = folder.close()
    if outcome.error or (outcome.exit_code and not folded.all_samples):
        return FoldOutcome(None, _failure(outcome), time.monotonic() - started)
    return FoldOutcome(folded, None, time.monotonic() - started)
