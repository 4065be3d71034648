"""A remote server's process CPU read by its observer (issue 46 item 2), the parts without a running stack: which
observer reads it, the environment's one line, the assignment's kind, the observer's reading times, its report's body
(a real reading of this host's /proc), and the worker's filing (readings past the load's end + grace dropped)."""

from __future__ import annotations

import os

import pytest
from pydantic import ValidationError

from kneeboard.observers import process_cpu
from kneeboard.observers.agent import READ_TAIL_S, _reading_times
from kneeboard.observers.schemas import ObservedProfile, ObserveAssignmentOut
from kneeboard.runs.monitors import with_process
from kneeboard.tools.base import PointResult
from kneeboard.tools.process import read

REMOTE = {"host": "192.0.2.10", "port": 53, "process": "coredns"}
LOCAL = {"host": "127.0.0.1", "port": 53, "process": "coredns"}


def test_a_remote_server_is_read_by_the_process_monitors_observer_else_the_profiles():
    profiled = {"cpu_profile": {"process": "coredns", "observer": "obs-a"}}
    assert process_cpu.observer_of(profiled, REMOTE) == "obs-a"
    assert process_cpu.observer_of({**profiled, "monitors": [{"kind": "process", "observer": "obs-b"}]}, REMOTE) == "obs-b"
    assert process_cpu.observer_of(profiled, LOCAL) is None  # this host's /proc: the worker's process monitor
    assert process_cpu.observer_of({}, REMOTE) is None
    assert process_cpu.process_of({"monitors": [{"kind": "process", "process": "named"}]}, REMOTE) == "named"


def test_the_environment_says_once_where_the_servers_cpu_is_read():
    assert process_cpu.where_read({"cpu_profile": {"process": "x", "observer": "obs-a"}}, REMOTE) == \
        "coredns: read by observer obs-a on the server's host"
    assert process_cpu.where_read({}, LOCAL) == "coredns: read from /proc on this host"
    assert process_cpu.where_read({}, REMOTE).startswith("coredns: not read, no observer on its host (192.0.2.10")
    assert process_cpu.where_read({}, {**REMOTE, "process": None}) is None


def test_the_worker_leaves_to_the_observer_a_process_monitor_it_cannot_read():
    documents = {"process": {"name": "coredns", "host": "192.0.2.10", "port": 53}}
    assert with_process([{"kind": "process"}, {"kind": "mpstat"}], documents) == [{"kind": "mpstat"}]
    local = {"process": {"name": "coredns", "host": "127.0.0.1", "port": 53}}
    assert with_process([{"kind": "process", "observer": "obs-a"}], local) == []
    assert with_process([], local) == [{"kind": "process"}]


def test_an_assignment_says_its_kind():
    common = {"id": 1, "point_id": 2, "campaign_id": 3, "start_at": 10.0, "since": 10.0, "until": 14.0}
    assert ObserveAssignmentOut(**common, process="coredns", frequency_hz=99).kind == "cpu_profile"
    assert ObserveAssignmentOut(**common, process="coredns", frequency_hz=None).kind == "process_cpu"
    events = [{"at_s": 1.0, "action": "host.service_stop", "value": "x"}]
    assert ObserveAssignmentOut(**common, process=None, frequency_hz=None, events=events).kind == "events"


def test_the_observer_reads_at_the_start_every_second_at_the_planned_end_then_for_a_bounded_tail():
    times = _reading_times(100.0, 104.5, 1.0)
    assert times[:6] == [100.0, 101.0, 102.0, 103.0, 104.0, 104.5] and times[6] == 105.5
    assert len(times) == 5 + int(READ_TAIL_S) and times[-1] < 104.5 + READ_TAIL_S


def reading(t: float, cpu: float, *, start: float = 50.0) -> dict:
    return {"t": t, "boot_s": 1000.0 + t, "process": "coredns", "procs": [[4242, start, cpu, 0.01]],
            "host": {"busy_s": 10.0 * t, "total_s": 20.0 * t, "cpus": 2}}


def test_a_real_reading_of_this_host_is_a_body_the_api_takes_and_a_strange_one_is_refused():
    line, _ = read.reading(read.Job("pytest", None), None)  # this very process (its comm: python or pytest)
    line["process"] = "pytest"
    assert ObservedProfile.model_validate({"process_cpu": [line]}).process_cpu[0].host.cpus == os.cpu_count()
    with pytest.raises(ValidationError):
        ObservedProfile.model_validate({"process_cpu": [line | {"process": "a/b"}]})
    with pytest.raises(ValidationError):
        ObservedProfile.model_validate({"process_cpu": [line | {"argv": ["sh"]}]})


def test_the_worker_files_the_observers_readings_and_drops_those_past_the_load(monkeypatch):
    readings = [reading(100.0, 1.0), reading(101.0, 1.5), reading(102.0, 2.0), reading(102.9, 2.45),
                reading(102.9 + process_cpu.GRACE_S + 0.1, 9.0)]  # the last: past the load's end + grace, dropped
    report = ObservedProfile.model_validate({"process_cpu": readings})
    monkeypatch.setattr(process_cpu.observing, "await_report", lambda *_a, **_k: (report, None))
    observed = process_cpu.ObservedProcess(7, "obs-a", "coredns", 3.0)
    observed.assignment, observed.load_ended = 11, 102.9
    result = PointResult()
    assert observed.file(result) == []
    summary = result.extra["monitors"]["process"]
    assert summary["cpu_s"] == 1.45 and summary["window_s"] == 2.9 and summary["readings"] == 4, summary
    assert summary["read_by"] == "read by observer obs-a" and summary["dropped_readings"] == 1
    assert summary["load_s"] == 2.9 and summary["load_cpu_pct"] == 50.0
    assert [s.series for s in result.samples] == ["process"] * 3


def test_an_observers_failure_or_too_few_readings_is_one_warning(monkeypatch):
    observed = process_cpu.ObservedProcess(7, "obs-a", "coredns", 3.0)
    observed.assignment, observed.load_ended = 11, 100.5
    failed = ObservedProfile(error="observer obs-a failed: OSError: x")
    monkeypatch.setattr(process_cpu.observing, "await_report", lambda *_a, **_k: (failed, None))
    assert observed.file(PointResult()) == ["server process CPU not read: observer obs-a failed: OSError: x"]
    one = ObservedProfile.model_validate({"process_cpu": [reading(100.0, 1.0)]})
    monkeypatch.setattr(process_cpu.observing, "await_report", lambda *_a, **_k: (one, None))
    result = PointResult()
    (warning,) = observed.file(result)
    assert "1 reading(s), CPU needs two" in warning and "monitors" not in result.extra
    monkeypatch.setattr(process_cpu.observing, "await_report", lambda *_a, **_k: (None, "observer obs-a stopped answering"))
    assert observed.file(PointResult()) == ["server process CPU not read: observer obs-a stopped answering"]
