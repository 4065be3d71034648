"""What an observer may report (bounded folded stacks, a command name only) and how it finds a command name."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from pydantic import ValidationError

from kneeboard.observers.agent import running
from kneeboard.observers.schemas import ObservedProfile
from kneeboard.profiling.folding import FULL, MAX_FOLDED_BYTES

ROW = {"process": "coredns", "frequency_hz": 99, "window_s": 20.0, "samples": 3, "all_samples": 10, "stack_depth": FULL,
       "stacks": 2, "dropped_stacks": 0, "dropped_samples": 0, "folded": "main;serve;read_[k] 2\nmain;log 1"}  # fmt: skip


def test_a_folded_profile_is_taken_as_frames_and_counts():
    assert ObservedProfile(profile=ROW, seen=[("coredns", 3)]).profile.samples == 3


@pytest.mark.parametrize(("field", "value"), [
    ("folded", "main;serve 2\n<script>alert(1)</script>"),  # a line without its count
    ("folded", "a 1\n" * (MAX_FOLDED_BYTES // 4 + 1)),  # over 1 MiB
    ("process", "/usr/sbin/nginx"),  # a path is never a command name
    ("process", "-nginx"),
    ("stack_depth", "deep"),
    ("frequency_hz", 5000),
])  # fmt: skip
def test_a_report_out_of_bounds_is_refused(field, value):
    with pytest.raises(ValidationError) as refused:
        ObservedProfile(profile={**ROW, field: value})
    assert field in str(refused.value)


def test_a_running_command_name_is_found_in_proc_and_nothing_else_is():
    mine = Path(f"/proc/{os.getpid()}/comm").read_text().strip()
    assert running(mine)
    assert not running("kbnosuchproc")
    assert not running(f"/proc/{os.getpid()}")  # a path matches no command name
