"""iperf3 (TCP/UDP throughput): build the argv; its text report is read live and at the end (text.py)."""

from __future__ import annotations

import pathlib
import re

from kneeboard.tools.base import PointSpec
from kneeboard.tools.contract import Metric, Problem, ToolAdapter, phase_loc
from kneeboard.tools.iperf3.params import MAX_RATE_BPS, MAX_STREAMS, Iperf3Params
from kneeboard.tools.iperf3.text import PARSER_VERSION, IntervalReader, parse_text

parse = parse_text

_RE_VERSION = re.compile(r"iperf (\d[\w.+~-]*)")


# --- build ----------------------------------------------------------------------


def per_stream_bitrate(rate: float | None, streams: int) -> int:
    """iperf3's -b is per stream: TOTAL offered bits/s ÷ streams; 0 (unlimited) when no rate."""
    return 0 if rate is None else round(rate / streams)


class Iperf3(ToolAdapter):
    """iperf3: `concurrency` = parallel streams (-P), `rate` = total bits/s (-b is per stream)."""

    name, title, target_kinds = "iperf3", "Network (iperf3)", ("net",)
    work_unit = ("Gbit", 1e9)
    Params = Iperf3Params
    concurrency_label, max_concurrency = "streams", MAX_STREAMS
    whole_seconds = True
    output_limit = 16 * 1_048_576  # one line per stream per second: long runs with many streams
    line_buffered = True  # its summed [SUM] line otherwise reaches the pipe one interval late, even with --forceflush
    version_argv, version_pattern = ["iperf3", "--version"], _RE_VERSION
    parser_version = PARSER_VERSION
    live_samples = True
    metrics = (
        Metric("throughput_bps", "Throughput", "bit/s", "higher", headline=True),
        Metric("achieved_rate", "Achieved", "bit/s", "higher"),
        Metric("loss_pct", "Loss", "%", "lower"),
        Metric("jitter_ms", "Jitter", "ms", "lower"),
        Metric("retransmits", "Retransmits", "count", "lower"),
        Metric("sent", "Datagrams sent", "count"),
        Metric("completed", "Datagrams received", "count", "higher"),
        Metric("lost", "Datagrams lost", "count", "lower"),
    )

    def check_points(self, params: Iperf3Params, points, host: str | None) -> list[Problem]:
        """A total rate must fit iperf3's -b and give each stream at least 1 bit/s."""
        problems = super().check_points(params, points, host)
        for point in points:
            rate = point.offered_rate
            if rate is not None and (rate > MAX_RATE_BPS or rate / max(1, point.concurrency) < 1):
                problems.append(((*phase_loc(point), "rate"), f"{rate:g} bit/s over {point.concurrency} streams: each stream needs 1 bit/s..{MAX_RATE_BPS:g} in all"))
        return problems

    def argv(self, spec: PointSpec, params: Iperf3Params, workdir: pathlib.Path) -> list[str]:
        """iperf3 client argv (`rate` is the TOTAL offered bits/s)."""
        argv = ["iperf3", "-c", spec.host, "-p", str(spec.port), "-t", str(int(spec.duration_s)), "-P", str(spec.concurrency),
                "-b", str(per_stream_bitrate(spec.rate, spec.concurrency)), "-f", "k", "-V", "--forceflush"]
        argv += ["-u"] if params.protocol == "udp" else []
        argv += ["-R"] if params.reverse else []
        argv += ["--get-server-output"] if params.protocol == "udp" and not params.reverse else []  # per-interval jitter, loss
        return argv + (["-l", str(params.length)] if params.length is not None else [])

    parse_final = staticmethod(parse)

    def interval_reader(self, started_at: float) -> IntervalReader:
        """Reads the run's interval lines as they come (streams summed; times from the process start)."""
        return IntervalReader(started_at)


ADAPTER = Iperf3()
build = ADAPTER.build
parse_version = ADAPTER.parse_version
