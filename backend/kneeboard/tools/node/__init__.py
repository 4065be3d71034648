"""node (monitor, the server's own CPU and NICs from its node_exporter): build the scraper's argv, read its lines.

The endpoint is the target's stored `metrics_url` (never a plan's): the worker hands it over in
the point's documents. Series: node.cpuN (usr/sys/irq/soft/idle/iowait/steal %, mpstat's names),
node.net.DEV (packets and drops per second), node.softnet.cpuN (processed/dropped/squeezed per second).
"""

from __future__ import annotations

import pathlib
import sys

from pydantic import BaseModel, ConfigDict, Field

from kneeboard.tools import units
from kneeboard.tools.base import PointResult, PointSpec, ToolInputError
from kneeboard.tools.contract import Metric, Role, ToolAdapter
from kneeboard.tools.node import rates
from kneeboard.validators import check_metrics_url

PARSER_VERSION = "1"
WARMUP_S = 1.0  # the summary leaves out the point's first second, as a load tool's steady window does


def parse(stdout: str, stderr: str, exit_code: int | None) -> PointResult:
    """The scraper's JSON lines → samples per interval and a summary; an error when fewer than two scrapes worked."""
    result = PointResult(parser_version=PARSER_VERSION)
    scrapes, errors = rates.read_lines(stdout)
    counts = {"scrapes": len(scrapes), "scrape_errors": len(errors), "first_error": errors[0] if errors else None}
    if len(scrapes) < 2:
        why = errors[0] if errors else (units.failure_reason("node scrape", stderr, exit_code)
                                        if (stderr or "").strip() or exit_code else "the point ended before a second scrape")
        result.error = f"node_exporter: {len(scrapes)} successful scrape(s), rates need two ({why})"
        result.extra = counts
        return result
    result.samples = rates.all_samples(scrapes)
    result.extra = {**counts, **rates.summarise(result.samples, float(scrapes[0]["t"]) + WARMUP_S)}
    if not result.samples:
        result.error = "node_exporter: no interval gave rates (every counter went down between scrapes?)"
    return result


class NodeParams(BaseModel):
    """The node monitor's parameters (the endpoint is the target's metrics_url, not a parameter)."""

    model_config = ConfigDict(extra="forbid", strict=True, title="node_exporter monitor parameters")
    interval_s: int = Field(default=1, ge=1, le=60, title="Interval (s)")


class Node(ToolAdapter):
    """The server's node_exporter, scraped beside every point: per-CPU shares, NIC and softnet rates."""

    name, title, role = "node", "Server (node_exporter)", Role.MONITOR
    Params = NodeParams
    parser_version = PARSER_VERSION
    warmup_s = WARMUP_S
    metrics = (  # the first is what the report charts: the server's per-CPU softirq share
        Metric("soft", "per-CPU %soft", "%", "lower"),
        *(Metric(f, f"%{f}", "%", None if f == "idle" else "lower") for f in rates.CPU_FIELDS if f != "soft"),
        Metric("rx_pps", "NIC received", "packets/s"),
        Metric("tx_pps", "NIC sent", "packets/s"),
        Metric("rx_drop_ps", "NIC receive drops", "packets/s", "lower"),
        Metric("tx_drop_ps", "NIC send drops", "packets/s", "lower"),
        Metric("processed_ps", "softnet processed", "packets/s"),
        Metric("dropped_ps", "softnet dropped (backlog full)", "packets/s", "lower"),
        Metric("squeezed_ps", "softnet squeezed (budget ran out)", "1/s", "lower"),
    )

    def argv(self, spec: PointSpec, params: NodeParams, workdir: pathlib.Path) -> list[str]:
        """`python -m kneeboard.tools.node.scrape URL INTERVAL DURATION` for the target's metrics_url."""
        url = spec.documents.get("metrics_url")
        if not url:
            raise ToolInputError("metrics_url: the target has none; set the target's metrics_url to use the node monitor")
        try:
            url = check_metrics_url(url)
        except ValueError as exc:
            raise ToolInputError(f"metrics_url: {exc}") from None
        return [sys.executable, "-m", "kneeboard.tools.node.scrape", url, str(params.interval_s), f"{spec.duration_s:g}"]

    parse_final = staticmethod(parse)


ADAPTER = Node()
build = ADAPTER.build
