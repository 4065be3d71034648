"""Regenerate the frontend's fixtures from the backend: GET /tools as the registry answers it, and monitor samples
made by the monitors' own code paths from captured output.

    .venv/bin/python scripts/frontend_fixtures.py

- frontend/src/tools/__fixtures__/tools.json: every registered tool's description (ToolOut, as GET /api/v1/tools).
- frontend/src/tools/__fixtures__/monitor-samples.json: monitor samples as GET /points/{id}/samples gives them:
  `server.<pack>.<query>` from
  - "coredns": CoreDNS 1.15.0's :9153 pages captured 1.5 s and 2.5 s into a 20,000 q/s dnsperf run
    (tests/fixtures/tool-output/coredns-1.15.0-minimal-Q20000-metrics-t*.txt) read by the coredns, process and go
    packs (select → all_samples), one interval;
  - "node_exporter": a real node_exporter scraped every second by the scraper, node, process and go packs
    (tests/fixtures/tool-output/exporter-scrape-node-1s.jsonl, see exporter-scrape.cmd), three intervals;
  and "mpstat": `mpstat.*` from mpstat's captured JSON on the lab (mpstat-12.6-json-veth-q4.json) read by its parser.
- frontend/src/tools/__fixtures__/lab-actions.json: the lab's registered actions (LabAction, GET /api/v1/lab's `actions`)
  as on a 2-CPU machine (lab.veth_queues' maximum is the CPU count).
"""

from __future__ import annotations

import json
import pathlib
from unittest import mock

from kneeboard.campaigns.schemas import SampleOut
from kneeboard.exporters.packs import all_packs
from kneeboard.lab.actions import list_actions
from kneeboard.lab.router import LabAction
from kneeboard.tools import mpstat
from kneeboard.tools.exporter import series
from kneeboard.tools.exporter.select import select
from kneeboard.tools.registry import all_tools
from kneeboard.tools.schemas import ToolOut

ROOT = pathlib.Path(__file__).resolve().parents[1]
CAPTURED = ROOT / "tests" / "fixtures" / "tool-output"
OUT = ROOT / "frontend" / "src" / "tools" / "__fixtures__"


def tools() -> list[dict]:
    """GET /api/v1/tools's answer."""
    return [ToolOut.model_validate(t.describe()).model_dump(mode="json") for t in all_tools()]


def out(samples: list) -> list[dict]:
    """Samples as the API gives them."""
    return [SampleOut(t=s.t, series=s.series, values=s.values).model_dump(mode="json") for s in samples]


def samples_of(scrapes: list[dict], pack_names: list[str]) -> list[dict]:
    """The exporter monitor's samples of successive scrapes, read by the named packs."""
    return out(series.all_samples(scrapes, [all_packs()[name] for name in pack_names]))


def coredns_samples() -> list[dict]:
    """The captured CoreDNS pages, one second apart, as two scrapes."""
    packs = ["coredns", "process", "go"]
    scrapes = []
    for t in (1.5, 2.5):
        page = (CAPTURED / f"coredns-1.15.0-minimal-Q20000-metrics-t{t}s.txt").read_text()
        scrapes.append({"t": t, **select(page, [all_packs()[name] for name in packs])})
    return samples_of(scrapes, packs)


def node_exporter_samples() -> list[dict]:
    """The scraper's captured lines from a real node_exporter."""
    scrapes, errors = series.read_lines((CAPTURED / "exporter-scrape-node-1s.jsonl").read_text())
    assert not errors, errors
    return samples_of(scrapes, ["node", "process", "go"])


def monitor_samples() -> dict[str, list[dict]]:
    """monitor-samples.json: each source's samples."""
    mpstat_json = (CAPTURED / "mpstat-12.6-json-veth-q4.json").read_text()
    return {"coredns": coredns_samples(), "node_exporter": node_exporter_samples(),
            "mpstat": out(mpstat.parse(mpstat_json, "", 0).samples)}


def lab_actions() -> list[dict]:
    """GET /api/v1/lab's `actions` on a 2-CPU machine (the same fixture on any machine)."""
    with mock.patch("os.sched_getaffinity", return_value={0, 1}):
        return [LabAction.model_validate(a).model_dump(mode="json") for a in list_actions()]


def write(name: str, data: object) -> None:
    """One fixture file, formatted as the others (indent 1, UTF-8)."""
    (OUT / name).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    write("tools.json", tools())
    write("monitor-samples.json", monitor_samples())
    write("lab-actions.json", lab_actions())
