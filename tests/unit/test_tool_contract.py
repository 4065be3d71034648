"""Every registered tool against the contract: its fixtures, its metrics, its bounds, a parser that raises."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from pydantic import ValidationError

from kneeboard.analysis import hdr
from kneeboard.tools.base import PointResult, PointSpec, ToolInputError
from kneeboard.tools.contract import Role
from kneeboard.tools.registry import adapter, all_tools
from kneeboard.tools.runner import RunOutcome

# (fixture stdout, stderr file or None, exit code, whether it measured something)
FIXTURES = {
    "dnsperf": [("dnsperf-2.10-c1-Q500.txt", None, 0, True), ("dnsperf-2.10-sat-c20-Q60000.txt", None, 0, True),
                ("dnsperf-2.10-lost.txt", None, 0, False), ("kblat-dnsperf-2.10-v-c2-Q500-S1.txt", None, 0, True),
                ("dnsperf-2.10-error-badarg.stdout.txt", "dnsperf-2.10-error-badarg.stderr.txt", 1, False)],
    "wrk": [("wrk-4.1-latency.txt", None, 0, True), ("wrk-lua-json.txt", None, 0, True), ("wrk-4.1-timeouts.txt", None, 0, True),
            (None, "wrk-4.1-refused.stderr.txt", 1, False), ("wrk-4.1-dist-c10.txt", None, 0, True),
            ("wrk-4.1-dist-no-samples.txt", None, 0, True)],
    "iperf3": [("iperf3-3.12-tcp-P1-fk-V.txt", None, 0, True), ("iperf3-3.12-udp-P4-fk-V.txt", None, 0, True),
               ("iperf3-3.12-refused-fk-V.stdout.txt", "iperf3-3.12-refused-fk-V.stderr.txt", 1, False),
               ("iperf3-3.12-udp-P2-fk-V-server-output.txt", None, 0, True), ("iperf3-3.12-udp-P2-R-fk-V.txt", None, 0, True)],
    "devsim": [("devsim-run-d20-r200.ndjson", "devsim-run-d20-r200.stderr.txt", 0, True),
               ("devsim-run-d20-r200-hdr.ndjson", "devsim-run-d20-r200-hdr.stderr.txt", 0, True),
               ("devsim-run-d40-r400-procs2-hdr.ndjson", "devsim-run-d40-r400-procs2-hdr.stderr.txt", 0, True),
               ("devsim-run-refused.ndjson", "devsim-run-refused.stderr.txt", 1, False)],
    "mpstat": [("mpstat-12.6-json.json", None, 0, True), ("mpstat-12.6-json-truncated-sigterm.json", None, 0, True)],
    "ping": [("ping-20.txt", None, 0, True), ("ping-unreachable.txt", None, 1, True)],
    "kbhttp": [("kbhttp-0.1-r200-c4.ndjson", None, 0, True), ("kbhttp-0.1-stall-r500-c20.ndjson", None, 0, True),
               ("kbhttp-0.1-sigint.ndjson", None, 0, True), ("kbhttp-0.1-killed.ndjson", None, None, False),
               ("kbhttp-0.1-refused.ndjson", None, 0, False), ("kbhttp-0.1-404.ndjson", None, 0, False),
               (None, "kbhttp-0.1-badarg.stderr.txt", 2, False)],
    "node": [("node-scrape-1s.jsonl", None, 0, True), ("node-scrape-refused.jsonl", None, 0, False),
             ("node-scrape-landing-page.jsonl", None, 0, False)],
    "exporter": [("exporter-scrape-node-1s.jsonl", None, 0, True), ("exporter-scrape-refused.jsonl", None, 0, False),
                 ("exporter-scrape-landing-page.jsonl", None, 0, False)],
    "process": [("process-read-unbound-loopback-Q2000.jsonl", None, 0, True), (None, "process-read-badarg.stderr.txt", 2, False)],
}
VERSIONS = {"dnsperf": "dnsperf-2.10-c1-Q500.txt", "wrk": None, "iperf3": None, "devsim": "devsim-version.txt",
            "mpstat": None, "ping": None, "kbhttp": "kbhttp-version.txt", "node": None,
            "exporter": None, "process": None}
GARBAGE = ["", "\x00\x01 not a report \xff", "{", '{"summary":true,', "Queries sent: x\nRequests/sec: nan", "[" * 5000]


def _read(fixtures_dir: Path, name: str | None) -> str:
    return (fixtures_dir / name).read_text(errors="replace") if name else ""


def test_every_tool_is_covered_here():
    assert sorted(t.name for t in all_tools()) == sorted(FIXTURES)


@pytest.mark.parametrize("tool", sorted(FIXTURES))
def test_fixtures_parse_into_declared_metrics(tool, fixtures_dir):
    found = adapter(tool)
    declared = {m.name for m in found.all_metrics()}
    for stdout, stderr, code, measured in FIXTURES[tool]:
        result = found.parse_final(_read(fixtures_dir, stdout), _read(fixtures_dir, stderr), code)
        assert isinstance(result, PointResult)
        if not measured:
            assert result.error, (tool, stdout)
            continue
        assert result.error is None, (tool, stdout, result.error)
        undeclared = set(result.metrics) - declared
        assert not undeclared, f"{tool} produces metrics it does not declare: {undeclared}"
        if found.role is Role.LOAD:
            assert result.metrics.get(found.headline.name) is not None, (tool, stdout)
        else:
            assert result.samples or result.metrics, (tool, stdout)


@pytest.mark.parametrize("tool", sorted(FIXTURES))
def test_metadata_is_complete(tool):
    described = adapter(tool).describe()
    assert described["params_schema"]["properties"]
    assert all(m["unit"] for m in described["metrics"])
    if described["role"] == "load":
        assert described["target_kinds"] and described["headline"]
        assert sum(m["headline"] for m in described["metrics"]) == 1


@pytest.mark.parametrize("tool", sorted(FIXTURES))
def test_a_parser_that_raises_fails_the_point_with_a_clear_message(tool, monkeypatch):
    found = adapter(tool)

    def broken(*_args):
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(found, "parse_final", broken)
    outcome = RunOutcome(argv=[tool], stdout="raw output", stderr="", exit_code=0)
    result = found.read(outcome)
    assert result.error == f"the {tool} parser failed (ZeroDivisionError: boom); raw output kept"
    assert outcome.stdout == "raw output"


@pytest.mark.parametrize("tool", sorted(FIXTURES))
@pytest.mark.parametrize("garbage", GARBAGE, ids=range(len(GARBAGE)))
def test_garbage_output_is_an_error_never_an_exception(tool, garbage):
    result = adapter(tool).read(RunOutcome(argv=[tool], stdout=garbage, stderr=garbage, exit_code=0))
    assert result.error or adapter(tool).role is Role.MONITOR and not result.samples


@pytest.mark.parametrize("tool", sorted(FIXTURES))
def test_a_missing_binary_is_a_clear_reason(tool):
    result = adapter(tool).read(RunOutcome(argv=[tool], error=f"{tool} is not installed (not found on PATH)"))
    assert result.error == f"{tool} is not installed (not found on PATH)"


@pytest.mark.parametrize("tool,name", [(t, n) for t, n in VERSIONS.items() if n])
def test_version_from_real_output(tool, name, fixtures_dir):
    assert adapter(tool).parse_version(_read(fixtures_dir, name))


def _out_of_bounds(schema: dict) -> list[tuple[str, object]]:
    """Values each property's own JSON Schema forbids: beyond min/max, outside an enum, the wrong type."""
    bad = []
    for name, prop in schema["properties"].items():
        options = prop.get("anyOf", [prop])
        for option in options:
            if "maximum" in option:
                bad.append((name, option["maximum"] + (1 if option.get("type") == "integer" else 0.5)))
            if "minimum" in option:
                bad.append((name, option["minimum"] - 1))
            if "enum" in option:
                bad.append((name, "not-" + str(option["enum"][0])))
            if "maxLength" in option:
                bad.append((name, "x" * (option["maxLength"] + 1)))
            if option.get("type") in {"integer", "number", "boolean"}:
                bad.append((name, "1"))
    bad.append(("no_such_parameter", 1))
    return bad


def _spec(tool: str, params: dict) -> PointSpec:
    return PointSpec(host="127.0.0.1", port=5353, concurrency=4, rate=None if not adapter(tool).takes_rate else 100.0,
                     duration_s=2, params=params, documents=_DOCUMENTS.get(tool, {}))


_DOCUMENTS = {"node": {"metrics_url": "http://127.0.0.1:9100/metrics"},  # the worker hands over the target's
              "exporter": {"exporters": {"dns": {"url": "http://127.0.0.1:9153/metrics", "packs": ["coredns"]}}},
              "process": {"process": {"name": "unbound", "host": "127.0.0.1", "port": 5353}}}


def _base_params(tool: str) -> dict:
    return {"host": "127.0.0.1"} if tool == "ping" else {"exporter": "dns"} if tool == "exporter" else {}


@pytest.mark.parametrize("tool", sorted(FIXTURES))
def test_params_refuse_what_build_refuses(tool, tmp_path):
    found = adapter(tool)
    cases = _out_of_bounds(found.Params.model_json_schema())
    assert len(cases) >= 2
    for name, value in cases:
        params = {**_base_params(tool), name: value}
        with pytest.raises(ValidationError):
            found.Params.model_validate(params)
        with pytest.raises(ToolInputError, match=rf"^params[.]{name}:"):
            found.build(_spec(tool, params), tmp_path)


@pytest.mark.parametrize("tool", sorted(FIXTURES))
def test_defaults_build_an_argv_list(tool, tmp_path):
    argv = adapter(tool).build(_spec(tool, _base_params(tool)), tmp_path)
    assert isinstance(argv, list) and all(isinstance(a, str) for a in argv)


@pytest.mark.parametrize("tool,params,points,host,field", [
    ("wrk", {"threads": 8}, [(4, None)], "127.0.0.1", ("params", "threads")),
    ("iperf3", {}, [(200, None)], "127.0.0.1", ("phases", 0, "concurrency")),
    ("devsim", {"source_ips": 4}, [(10, 5.0)], "10.77.0.2", ("params", "source_ips")),
    ("dnsperf", {}, [(100_001, 10.0)], "127.0.0.1", ("phases", 0, "concurrency")),
    ("wrk", {}, [(4, 10.0)], "127.0.0.1", ("phases", 0, "rate")),
    ("kbhttp", {}, [(4, None), (8, None)], "127.0.0.1", ("phases", 0, "rate")),
    ("kbhttp", {}, [(4, 2_000_000.0)], "127.0.0.1", ("phases", 0, "rate")),
])  # fmt: skip
def test_plan_level_checks_name_the_field(tool, params, points, host, field):
    found = adapter(tool)

    class Planned:
        def __init__(self, concurrency, rate):
            self.phase_index, self.concurrency, self.offered_rate, self.duration_s = 0, concurrency, rate, 2.0

    problems = found.check_points(found.read_params(params), [Planned(c, r) for c, r in points], host)
    assert [loc for loc, _ in problems] == [field]


def test_checks_accept_what_they_should():
    devsim = adapter("devsim")
    assert devsim.check_points(devsim.read_params({"source_ips": 4}), [PointSpec("127.0.0.1", 1, 10, 5.0, 2)], "127.0.0.1") == []
    wrk = adapter("wrk")
    assert wrk.check_points(wrk.read_params({"threads": 4}), [PointSpec("127.0.0.1", 80, 4, None, 2)], "127.0.0.1") == []
    assert not math.isnan(adapter("iperf3").max_concurrency)


# --- latency percentiles from the stored histogram -----------------------------

_LATENCY_TOOLS = sorted(t.name for t in all_tools() if t.role is Role.LOAD and t.metric("latency_p50_ms"))


def test_every_load_tool_but_iperf3_reports_latency_percentiles():
    """iperf3 measures no request latency: its UDP points carry jitter and loss, per interval and for the point."""
    load = {t.name for t in all_tools() if t.role is Role.LOAD}
    assert set(_LATENCY_TOOLS) == load - {"iperf3"}
    assert {"jitter_ms", "loss_pct"} <= {m.name for m in adapter("iperf3").metrics}


@pytest.mark.parametrize("tool", _LATENCY_TOOLS)
def test_latency_percentiles_are_those_of_the_stored_histogram(tool, fixtures_dir):
    """p50, p90, p99, p99.9 declared, and on a successful run's fixture equal to extra.hdr's, decoded here."""
    found = adapter(tool)
    assert set(hdr.PERCENTILES) <= {m.name for m in found.metrics}
    checked = []
    for stdout, stderr, code, measured in FIXTURES.get(tool, []):
        result = found.parse_final(_read(fixtures_dir, stdout), _read(fixtures_dir, stderr), code)
        if not measured or result.error or "hdr" not in result.extra:
            continue
        histogram = hdr.decode(result.extra["hdr"])
        assert histogram.get_total_count() > 0, (tool, stdout)
        assert {k: result.metrics.get(k) for k in hdr.PERCENTILES} == hdr.percentiles_ms(histogram), (tool, stdout)
        assert all(hdr.decode(encoded).get_total_count() for _, encoded in result.extra.get("hdr_intervals", []))
        checked.append(stdout)
    assert checked, f"{tool}: no fixture of a successful run stores its latency histogram (extra.hdr)"
