"""Folding real `perf script` output (perf 6.1, Debian 12; captured here under load, see the fixtures' README):
CoreDNS (Go, frame pointers: full stacks) with and without its `log` plugin, nginx (Debian's build, no frame pointers:
leaf functions only), and a window of every process on the host."""

from __future__ import annotations

from collections import Counter

import pytest

from kneeboard.profiling import analysis
from kneeboard.profiling.folding import FULL, KERNEL_MARK, LEAF_ONLY, cap, fold, frame_name
from kneeboard.profiling.perf import record_argv, script_argv, window
from kneeboard.cpu_profile_setting import CpuProfileSettings

ALL = "perf-6.1-script-all-coredns-minimal-Q10000.txt"
MINIMAL = "perf-6.1-script-coredns-minimal-Q10000.txt"
LOG_FILE = "perf-6.1-script-coredns-log_file-Q10000.txt"
NGINX = "perf-6.1-script-nginx-wrk-c8.txt"
LOG_HANDLER = "github.com/coredns/coredns/plugin/log.Logger.ServeDNS"


def folded(fixtures_dir, name: str, process: str):
    with open(fixtures_dir / name) as fh:
        return fold(fh, process)


def headers(fixtures_dir, name: str) -> Counter:
    """Samples per command name, counted from the file's header lines (independently of the folder)."""
    lines = (fixtures_dir / name).read_text().splitlines()
    return Counter(line.rsplit(None, 2)[0].strip() for line in lines if line and not line[0].isspace())


def test_only_the_named_process_is_folded_from_a_window_of_every_process(fixtures_dir):
    counted = headers(fixtures_dir, ALL)
    got = folded(fixtures_dir, ALL, "coredns")
    assert got.samples == counted["coredns"] == sum(got.stacks.values()) == 24
    assert got.all_samples == sum(counted.values()) == 80 and got.by_comm == counted
    assert not any("AdGuardHome" in s or "python" in s.lower() for s in got.stacks)  # others' frames stay out
    assert folded(fixtures_dir, ALL, "AdGuardHome").samples == counted["AdGuardHome"] == 13
    assert folded(fixtures_dir, ALL, "cored").samples == 0  # a whole command name, not a prefix


def test_go_stacks_are_whole_root_first_names_only(fixtures_dir):
    got = folded(fixtures_dir, MINIMAL, "coredns")
    assert got.samples == 76 and got.stack_depth == FULL
    for stack in got.stacks:
        frames = stack.split(";")
        assert all(f and "0x" not in f and "+" not in f and "[unknown]" not in f for f in frames)
        assert not any(f.startswith("ffffffff") for f in frames)  # no kernel address
    served = [s for s in got.stacks if "file.File.ServeDNS" in s]
    assert served and all(s.startswith("runtime.goexit.abi0;") for s in served)  # root first, as perf walked it up
    kernel = [f for s in got.stacks for f in s.split(";") if f.endswith(KERNEL_MARK)]
    assert "entry_SYSCALL_64_after_hwframe_[k]" in kernel


def test_the_log_plugin_and_its_write_are_in_the_log_file_profile_only(fixtures_dir):
    log_file, minimal = folded(fixtures_dir, LOG_FILE, "coredns"), folded(fixtures_dir, MINIMAL, "coredns")
    writes = [s for s in log_file.stacks if LOG_HANDLER in s and "os.(*File).Write" in s]
    assert writes and all("vfs_write_[k]" in s for s in writes if "ksys_write_[k]" in s)
    assert sum(log_file.stacks[s] for s in log_file.stacks if LOG_HANDLER in s) == 38
    assert not any("plugin/log." in s for s in minimal.stacks)


def test_nginx_without_frame_pointers_is_leaf_functions_only(fixtures_dir):
    got = folded(fixtures_dir, NGINX, "nginx")
    assert got.samples == 54 and got.stack_depth == LEAF_ONLY
    assert any(s.startswith("__GI___writev;entry_SYSCALL_64_after_hwframe_[k]") for s in got.stacks)
    assert any("[nginx]" in s for s in got.stacks)  # the stripped binary's frames: its file name, no address


@pytest.mark.parametrize(("sym", "dso", "expected"), [
    ("tcp_sendmsg+0x3b", "[kernel.kallsyms]", ("tcp_sendmsg_[k]", False)),
    ("[unknown]", "[kernel.kallsyms]", (None, False)),
    ("[unknown]", "[unknown]", (None, False)),
    ("[unknown]", "/usr/sbin/nginx", ("[nginx]", False)),
    ("runtime.mcall", "/opt/coredns", ("runtime.mcall", True)),
    ("std::map<int; int>::find", "/usr/lib/libx.so", ("std::map<int: int>::find", True)),
])  # fmt: skip
def test_a_frame_keeps_a_name_only(sym, dso, expected):
    assert frame_name(sym, dso) == expected


def test_the_cap_keeps_the_heaviest_stacks_and_counts_the_rest(fixtures_dir):
    stacks = folded(fixtures_dir, LOG_FILE, "coredns").stacks
    whole = cap(stacks)
    assert whole.dropped_stacks == 0 and whole.samples == 97 and analysis.parse_folded(whole.text) == stacks
    limit = len(whole.text.encode()) // 3
    small = cap(stacks, limit)
    assert len(small.text.encode()) <= limit and small.dropped_stacks > 0
    assert small.samples + small.dropped_samples == 97 and small.stacks + small.dropped_stacks == len(stacks)
    kept = analysis.parse_folded(small.text)
    assert min(kept.values()) >= max(n for s, n in stacks.items() if s not in kept)


def test_perf_argv_is_built_from_typed_values_only(tmp_path):
    settings = CpuProfileSettings(process="coredns", frequency_hz=99)
    assert record_argv(settings, tmp_path / "x.data") == ["perf", "record", "-e", "cpu-clock", "-F", "99", "-a", "-g", "-k", "realtime",
                                                          "--no-buildid", "--no-buildid-cache", "--max-size", "256M", "-o", str(tmp_path / "x.data")]
    assert script_argv(tmp_path / "x.data")[:4] == ["nice", "-n", "19", "perf"]
    assert script_argv(tmp_path / "x.data", idle=False)[:2] == ["perf", "script"]  # the worker's own fold, between points
    assert window(20, 1) == (1, 18) and window(2.5, 1) is None and window(2000, 1) == (1, 600)


@pytest.mark.parametrize("bad", [{"process": "-e"}, {"process": "a" * 16}, {"process": "co redns"}, {"process": "/bin/sh"},
                                 {"process": "coredns", "frequency_hz": 0}, {"process": "coredns", "frequency_hz": 1000},
                                 {"process": "coredns", "argv": ["x"]}])  # fmt: skip
def test_the_plan_setting_refuses_what_is_not_a_command_name_or_a_frequency(bad):
    with pytest.raises(ValueError):
        CpuProfileSettings.model_validate(bad)


def test_only_the_windows_samples_are_counted(fixtures_dir):
    whole = folded(fixtures_dir, MINIMAL, "coredns")
    with open(fixtures_dir / MINIMAL) as fh:
        half = fold(fh, "coredns", since=whole.first_t, until=whole.first_t + 1.0)
    assert 0 < half.samples < whole.samples and half.last_t <= whole.first_t + 1.0 and half.all_samples == half.samples
    padded = ["         coredns  7485 1795751682.848332: ", "\t 51d46 runtime.netpollblockcommit+0x26 (/x/coredns)", ""]
    assert fold(padded, "coredns").stacks == Counter({"runtime.netpollblockcommit": 1})  # perf pads a comm at times
