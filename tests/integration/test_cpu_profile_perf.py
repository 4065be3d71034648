"""The CPU profile's own path with the real perf (root), no stack: a recording over a window, stopped by its PID,
folded at idle priority for one command name; and what the point is told when perf is missing, not permitted, too
late, or never sees the process."""

from __future__ import annotations

import os
import subprocess
import time

import pytest

from kneeboard.profiling import perf
from kneeboard.runs.cpu_capture import PointProfile, is_local
from kneeboard.cpu_profile_setting import CpuProfileSettings
from kneeboard.tools.base import PointResult
from kneeboard.tools.runner import RunOutcome

needs_perf = pytest.mark.skipif(os.geteuid() != 0 or subprocess.run(["which", "perf"], capture_output=True).returncode,
                                reason="perf -a needs root and linux-perf")  # fmt: skip


@pytest.fixture
def busy():
    """A process burning one CPU under a command name of its own (sha256sum of /dev/zero); ended by its PID."""
    proc = subprocess.Popen(["sha256sum", "/dev/zero"], stdout=subprocess.DEVNULL)
    yield proc
    proc.kill()
    proc.wait()


@needs_perf
def test_a_recording_over_its_window_folds_the_named_process_only(tmp_path, busy):
    settings = CpuProfileSettings(process="sha256sum", frequency_hz=199)
    profile = PointProfile(settings, tmp_path, (1.0, 1.5))
    began = time.monotonic()
    with profile:
        time.sleep(4)  # the load outlasts the window: perf stops itself at its end
    assert time.monotonic() - began < 6 and profile.stopped is None
    result = PointResult()
    assert profile.file(result) == []
    summary = result.extra["cpu_profile"]
    print(f"\nfigures: {summary['samples']} sha256sum samples of {summary['all_samples']} in {summary['window_s']:.2f} s "
          f"at 199 Hz, folded in {summary['fold_s']:.2f} s")
    assert 1.3 <= summary["window_s"] <= 1.6 and summary["samples"] >= 0.1 * 199 * 1.5  # a shared machine: not always a whole CPU
    assert summary["samples"] < summary["all_samples"]  # others were sampled too, and left out
    assert not (tmp_path / perf.DATA_FILE).exists()  # the data file is removed once folded
    assert profile.row["folded"] and "sha256" in profile.row["folded"]


@needs_perf
def test_a_process_never_seen_is_a_warning_with_what_was_seen(tmp_path, busy):
    profile = PointProfile(CpuProfileSettings(process="kbnotrunning"), tmp_path, (0.0, 3.0))
    with profile:
        time.sleep(3.5)
    result = PointResult()
    (warning,) = profile.file(result)
    assert "no sample of a process named 'kbnotrunning'" in warning and "sha256sum" in warning, warning
    assert result.extra["cpu_profile"]["samples"] == 0


def test_a_point_that_ends_before_its_window_starts_says_so(tmp_path):
    profile = PointProfile(CpuProfileSettings(process="coredns"), tmp_path, (30.0, 10.0))
    with profile:
        pass
    assert profile.file(PointResult()) == ["CPU profile not taken: the point ended before its steady window began"]


def test_perf_missing_is_said(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # no perf on this PATH
    profile = PointProfile(CpuProfileSettings(process="coredns"), tmp_path, (0.0, 1.0))
    with profile:
        time.sleep(0.2)
    assert profile.file(PointResult()) == ["CPU profile not taken: perf is not installed (not found on PATH)"]


def test_perf_not_permitted_names_the_privileges(fixtures_dir):
    stderr = (fixtures_dir / "perf-6.1-record-not-permitted.stderr.txt").read_text()
    said = perf._failure(RunOutcome(argv=["perf"], stderr=stderr, exit_code=255))
    assert "not permitted" in said and "CAP_PERFMON" in said and "perf_event_paranoid" in said


@pytest.mark.parametrize(("host", "local"), [("127.0.0.1", True), ("::1", True), ("10.77.0.2", True), ("localhost", True),
                                             ("192.0.2.10", False), ("10.77.0.1", False)])  # fmt: skip
def test_only_loopback_and_lab_targets_are_profiled_by_the_local_worker(host, local):
    assert is_local(host) is local
