"""The scraper's command line: one exporter, or several with --each (one process per point), checked again."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from kneeboard.tools.exporter.scrape import main, read_jobs

ONE = ["http://127.0.0.1:9/metrics", "127.0.0.1:9", "1", "2", "node"]


def test_one_exporter_and_several_read_alike():
    assert list(read_jobs(ONE)) == [None]
    jobs = read_jobs(["--each", "a", *ONE, "--each", "b-2", *ONE[:4], "process,go"])
    assert list(jobs) == ["a", "b-2"] and [p.name for p in jobs["b-2"][4]] == ["process", "go"]


@pytest.mark.parametrize("argv", [
    ["--each", "a", *ONE, "--each", "a", *ONE],  # a name twice
    ["--each", "A;rm", *ONE],  # a name outside [a-z0-9_-]
    ["--each", "a", *ONE[:4]],  # a group cut short
    ["--each", "a", "file:///etc/passwd", *ONE[1:]],  # not an http URL
    ["--each", "a", *ONE[:4], "nosuchpack"],
])
def test_a_bad_command_line_is_exit_2(argv, capsys):
    assert main(argv) == 2 and "exporter scrape:" in capsys.readouterr().err


def test_several_exporters_print_tagged_lines_each_on_its_own_beat():
    """Two refused exporters, 1.2 s: each prints its own error lines, tagged with its name, whole."""
    argv = [sys.executable, "-m", "kneeboard.tools.exporter.scrape", "--each", "a", "http://127.0.0.1:9/metrics", "127.0.0.1:9",
            "0.5", "1.2", "node", "--each", "b", "http://127.0.0.1:7/metrics", "127.0.0.1:7", "1", "1.2", "process"]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=20)
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 0 and {line["exporter"] for line in lines} == {"a", "b"}
    assert sum(line["exporter"] == "a" for line in lines) == 3 and sum(line["exporter"] == "b" for line in lines) == 2
    assert all("error" in line for line in lines)
