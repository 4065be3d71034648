"""perf stopped the way it asks to be (issue 48), with the real perf (root), no stack: SIGINT, then its own deadline to
finish writing before SIGKILL; a data file it did not finish is a warning naming why, never handed to `perf script`."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

from kneeboard.profiling import perf
from kneeboard.runs.cpu_capture import PointProfile
from kneeboard.cpu_profile_setting import CpuProfileSettings
from kneeboard.tools import runner
from kneeboard.tools.base import PointResult

from tests.integration.test_cpu_profile_perf import busy, needs_perf  # noqa: F401 - busy is a fixture
from tests.support.hog import busy_host

SETTINGS = CpuProfileSettings(process="sha256sum", frequency_hz=99)


def perf_pid(data: Path, timeout_s: float = 10) -> int:
    """The PID of the `perf record` writing `data` (started by the recording's thread)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if argv[:2] == [b"perf", b"record"] and str(data).encode() in argv:
                return int(pid)
        time.sleep(0.05)
    raise AssertionError(f"no perf record writing {data}")


def sampled(profile: PointProfile, before_stop) -> list[str]:
    """Record a 30 s window, let it run 2 s, do `before_stop` to its perf, stop it; the point's warnings."""
    with profile:
        pid = perf_pid(profile.recording.data)
        time.sleep(2)
        before_stop(pid)
    return profile.file(PointResult())


@needs_perf
def test_a_perf_that_cannot_finish_is_killed_after_its_own_deadline_and_said(tmp_path, monkeypatch, busy):  # noqa: F811
    monkeypatch.setattr(perf, "STOP_WAIT_S", 1.0)
    profile = PointProfile(SETTINGS, tmp_path, (0.0, 30.0))
    began = time.monotonic()
    warnings = sampled(profile, lambda pid: os.kill(pid, signal.SIGSTOP))  # stopped: it cannot act on the SIGINT
    assert warnings == ["CPU profile not taken: perf was killed: it had not finished writing its data file 1 s after SIGINT"]
    assert profile.recording.outcome.killed and profile.recording.outcome.exit_code == -signal.SIGKILL
    assert time.monotonic() - began < 2 + 1 + runner.KILL_WAIT_S + 3
    assert not profile.recording.data.exists()  # discarded, not folded


@needs_perf
def test_a_perf_killed_mid_recording_is_a_warning_naming_it_not_perf_scripts_255(tmp_path, busy):  # noqa: F811
    profile = PointProfile(SETTINGS, tmp_path, (0.0, 30.0))
    warnings = sampled(profile, lambda pid: os.kill(pid, signal.SIGKILL))
    assert warnings == ["CPU profile not taken: perf was killed by SIGKILL before it finished writing its data file"]
    assert not profile.recording.outcome.killed  # not by us: the runner never had to
    assert not profile.recording.data.exists()


@needs_perf
def test_the_header_check_agrees_with_perfs_own_reader_on_a_finished_and_a_cut_file(tmp_path):
    finished, cut = tmp_path / "finished.data", tmp_path / "cut.data"
    argv = perf.record_argv(SETTINGS, finished)
    stopped = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    killed = subprocess.Popen([*argv[:-1], str(cut)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(2)
    stopped.send_signal(signal.SIGINT)
    killed.kill()
    assert stopped.wait(timeout=perf.STOP_WAIT_S) in perf.FINISHED and killed.wait() == -signal.SIGKILL
    assert perf.header_problem(finished) is None
    assert perf.header_problem(cut) == "its header says no data was written (perf stopped before it finished the file)"
    for data, refused in ((finished, False), (cut, True)):  # perf's own reading of the same two files
        said = subprocess.run(["perf", "report", "--header-only", "-i", str(data)], capture_output=True, text=True).stderr
        assert ("data size field is 0" in said) is refused, said
    assert perf.header_problem(tmp_path / "none.data").startswith("no data file")
    (tmp_path / "text.data").write_text("not perf\n" * 20)
    assert perf.header_problem(tmp_path / "text.data") == "not a perf data file (no PERFILE2 header)"
    whole = finished.read_bytes()
    (tmp_path / "short.data").write_bytes(whole[: len(whole) // 2])
    assert perf.header_problem(tmp_path / "short.data").startswith("it is shorter")


@needs_perf
def test_a_recording_beside_a_hog_on_every_core_and_300_idle_processes_is_folded(tmp_path, busy):  # noqa: F811
    with busy_host():
        profile = PointProfile(CpuProfileSettings(process="sha256sum", frequency_hz=99), tmp_path, (1.0, 3.0))
        with profile:
            time.sleep(4.5)
        result = PointResult()
        warnings = profile.file(result)
    assert profile.stopped is None and warnings == [], warnings
    print(f"\nfigures: beside a hog on every core: {result.extra['cpu_profile']['samples']} sha256sum samples in "
          f"{result.extra['cpu_profile']['window_s']:.2f} s, perf stopped in the window's end, folded in "
          f"{result.extra['cpu_profile']['fold_s']:.2f} s")
    assert result.extra["cpu_profile"]["samples"] > 0
