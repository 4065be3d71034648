"""kbhttp's outcome file in the adapter: the params that ask for it, the argv naming a file in the point's workdir, and
the file read after the point (a real capture through lab-haproxy, tests/fixtures/tool-output/kbhttp-0.3-haproxy-*)."""

from __future__ import annotations

import json

import pytest

from kneeboard.analysis import failover
from kneeboard.tools import kbhttp
from kneeboard.tools.base import PointSpec, ToolInputError
from kneeboard.tools.kbhttp import outcomes
from kneeboard.tools.runner import RunOutcome

CAPTURE = "kbhttp-0.3-haproxy-b2-stopped-r2000"


def spec(**params) -> PointSpec:
    return PointSpec("10.77.0.2", 8080, 50, 2000.0, 12, params)


def test_argv_names_the_outcome_file_in_the_workdir_and_passes_the_header_and_cookies(tmp_path):
    (tmp_path / outcomes.FILE).write_text("an earlier attempt's file")
    argv = kbhttp.build(spec(count_header="X-Backend", cookies=True), tmp_path)
    assert argv[-5:] == ["--outcomes", str(tmp_path / outcomes.FILE), "--count-header", "X-Backend", "--cookies"]
    assert not (tmp_path / outcomes.FILE).exists(), "an earlier attempt's file is never read as this one's"
    assert kbhttp.build(spec(outcomes=True), tmp_path)[-2:] == ["--outcomes", str(tmp_path / outcomes.FILE)]
    plain = kbhttp.build(spec(), tmp_path)
    assert "--outcomes" not in plain and "--cookies" not in plain and "--count-header" not in plain


@pytest.mark.parametrize("params,field", [({"count_header": "X Backend"}, "count_header"), ({"count_header": "X-B:1"}, "count_header"),
                                          ({"count_header": "X-B\r\nEvil: 1"}, "count_header"), ({"count_header": ""}, "count_header"),
                                          ({"count_header": "x" * 65}, "count_header"), ({"count_header": "--cookies"}, "count_header"), ({"cookies": "yes"}, "cookies"),
                                          ({"outcomes": 1}, "outcomes")])
def test_params_refuse_a_header_that_is_not_a_token(params, field, tmp_path):
    with pytest.raises(ToolInputError, match=rf"^params[.]{field}:"):
        kbhttp.build(spec(**params), tmp_path)


def run_outcome(fixtures_dir, tmp_path, file_text: str | None) -> RunOutcome:
    """The captured run as the runner would give it, its argv naming an outcome file holding `file_text`."""
    path = tmp_path / outcomes.FILE
    if file_text is not None:
        path.write_text(file_text)
    argv = (fixtures_dir / f"{CAPTURE}.cmd").read_text().split()
    argv[argv.index("--outcomes") + 1] = str(path)
    return RunOutcome(argv=argv, stdout=(fixtures_dir / f"{CAPTURE}.ndjson").read_text(), exit_code=0)


def test_the_file_is_read_after_the_point_into_a_compact_lossless_form(fixtures_dir, tmp_path):
    text = (fixtures_dir / f"{CAPTURE}.jsonl").read_text()
    result = kbhttp.ADAPTER.read(run_outcome(fixtures_dir, tmp_path, text))
    stored = result.extra["outcomes"]
    assert result.error is None and result.extra["warnings"][0] == "582 status errors (first: GET http://10.77.0.2:8080/: 503 Service Unavailable)"
    assert not any("outcome" in w for w in result.extra["warnings"])
    assert (stored["bucket_ms"], stored["buckets"], stored["merged"], stored["header"]) == (10, 1201, 1, "X-Backend")
    assert stored["value_order"] == ["b3", "b1", "b2"] and stored["connections_total"] == 50 == len(stored["connections"])
    assert isinstance(stored["classes"]["ok"], list) and set(stored["classes"]["http_5xx"]) == {"n", "at"}, "errors are sparse"
    o = failover.Outcomes.from_stored(stored)
    assert sum(o.series("ok")) + sum(o.failures()) == result.metrics["sent"] == 24000
    assert sum(o.series("http_5xx")) == result.extra["errors"]["status"] == 582, "the file agrees with the point line"
    raw = [json.loads(line) for line in text.splitlines()[1:] if line.startswith('{"i"')]
    assert sum(r["h"][2] for r in raw) == sum(o.values["b2"]) and len(json.dumps(stored)) < len(text) / 2


def test_a_cut_file_keeps_what_it_has_and_says_so(fixtures_dir, tmp_path):
    text = (fixtures_dir / f"{CAPTURE}.jsonl").read_text()
    cut = text[: len(text) // 2 + 7]  # ends inside a line
    result = kbhttp.ADAPTER.read(run_outcome(fixtures_dir, tmp_path, cut))
    assert result.error is None and result.extra["outcomes"]["buckets"] == 1201
    assert any("cut short" in w for w in result.extra["warnings"]) and any("not JSON" in w for w in result.extra["warnings"])
    assert 0 < sum(failover.Outcomes.from_stored(result.extra["outcomes"]).series("ok")) < 24000


def test_a_file_larger_than_the_cap_is_read_only_to_the_cap(tmp_path):
    path = tmp_path / "big"
    path.write_text("x" * 100)
    assert outcomes.read_file(path, limit=40) == ("x" * 40, True) and outcomes.read_file(path, limit=100) == ("x" * 100, False)
    assert outcomes.read_file(tmp_path / "none") is None


def test_a_missing_file_is_a_warning_and_no_file_asked_for_reads_nothing(fixtures_dir, tmp_path):
    result = kbhttp.ADAPTER.read(run_outcome(fixtures_dir, tmp_path, None))
    assert result.error is None and "outcomes" not in result.extra
    assert result.extra["warnings"][-1] == "kbhttp wrote no outcome file: the outcomes per 10 ms are missing"
    plain = kbhttp.ADAPTER.read(RunOutcome(argv=["kbhttp", "run"], stdout=(fixtures_dir / f"{CAPTURE}.ndjson").read_text(), exit_code=0))
    assert "outcomes" not in plain.extra and not any("outcome" in w for w in plain.extra["warnings"])


def test_a_long_point_is_stored_in_wider_buckets_within_the_bounds():
    n = 60_001  # 10 min at 10 ms
    head = {"kbhttp": "outcomes", "version": "0.3.0", "start_ms": 1000.0, "bucket_ms": 10, "buckets": n,
            "classes": ["ok", "connect"], "header": "X-Backend", "values": ["b1", "b2", "b3"]}
    lines = [json.dumps(head)] + [json.dumps({"i": i, "n": [3, i % 2], "h": [1, 1, 1]}) for i in range(n)]
    stored, warnings = outcomes.parse("\n".join(lines))
    cells = stored["buckets"] * (len(stored["classes"]) + len(stored["values"]))
    assert stored["buckets"] <= outcomes.MAX_BUCKETS and cells <= outcomes.MAX_CELLS and stored["merged"] == 20
    assert stored["bucket_ms"] == 200 and warnings == ["the outcome file was cut short (no end line): its last buckets or connections may be missing"]
    o = failover.Outcomes.from_stored(stored)
    assert sum(o.series("ok")) == 3 * n and sum(o.series("connect")) == n // 2 and o.start == 1.0
