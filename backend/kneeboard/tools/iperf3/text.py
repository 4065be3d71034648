"""iperf3's text report (`-f k -V --forceflush`): interval lines as they come, the summary at the end.

iperf3 3.12 cannot stream JSON (--json-stream came in 3.17), so Kneeboard reads its text: with
`-f k` every bitrate is a whole number of Kbit/s (1 Kbit = 1,000 bits), exact to the bit/s that
matters; UDP datagram counts are exact integers. Pure functions.

UDP jitter and loss are the receiver's. With -R the client receives and prints them on every
interval line; otherwise the client sends and its interval lines have none, so Kneeboard asks
for the server's report (`--get-server-output`): printed after the client's summary, under
"Server output:", its interval lines give each interval's jitter and loss at the end of the run.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from typing import Any

from kneeboard.tools.base import PointResult, Sample

PARSER_VERSION = "4"

_RATE = {"bits/sec": 1.0, "Kbits/sec": 1e3, "Mbits/sec": 1e6, "Gbits/sec": 1e9, "Tbits/sec": 1e12}
_BYTES = {"Bytes": 1.0, "KBytes": 1024.0, "MBytes": 1024.0**2, "GBytes": 1024.0**3, "TBytes": 1024.0**4}
_LINE = re.compile(
    r"^\[\s*(?P<id>SUM|\d+)\]\s+(?P<start>[\d.]+)-(?P<end>[\d.]+)\s+sec\s+(?P<bytes>[\d.]+)\s+(?P<bunit>[KMGT]?Bytes)\s+"
    r"(?P<rate>[\d.]+)\s+(?P<runit>[KMGT]?bits/sec)(?P<rest>.*?)\s*$")
_UDP_RECEIVED = re.compile(r"(?P<jitter>[\d.]+)\s+ms\s+(?P<lost>\d+)/(?P<total>\d+)\s+\((?P<pct>[\d.e+-]+)%\)")
_CPU = re.compile(r"CPU Utilization: local/\w+ (?P<local>[\d.]+)%.*remote/\w+ (?P<remote>[\d.]+)%")
_STARTING = re.compile(r"Starting Test: protocol: (?P<protocol>\w+), (?P<streams>\d+) streams?, (?P<blksize>\d+) byte blocks")
_TARGET = re.compile(r"Target Bitrate: (?P<bps>\d+)")
_CONNECTED = re.compile(r"^\[\s*\d+\] local \S+ port \d+ connected to")
_ERROR = re.compile(r"iperf3: (?:error - )?(.*)")
_TIME = re.compile(r"^Time: (.+ GMT)$", re.M)
_SERVER_OUTPUT = "Server output:"
_RECEIVED_KEYS = ("jitter_ms", "lost", "datagrams", "loss_pct")


@dataclass
class Line:
    """One interval or summary line: stream id (or SUM), interval, bytes, bits/s, and what follows."""

    stream: str
    start: float
    end: float
    bytes: float
    bps: float
    rest: str

    @property
    def side(self) -> str | None:
        """"sender" or "receiver" on a summary line, None on an interval line."""
        words = self.rest.split()
        return words[-1] if words and words[-1] in {"sender", "receiver"} else None


def read_line(text: str) -> Line | None:
    """One line of the report as figures, or None when it is not an interval or summary line."""
    match = _LINE.match(text)
    if match is None:
        return None
    return Line(match["id"], float(match["start"]), float(match["end"]), float(match["bytes"]) * _BYTES[match["bunit"]],
                float(match["rate"]) * _RATE[match["runit"]], match["rest"])  # fmt: skip


def _values(line: Line) -> dict[str, float | None]:
    values: dict[str, float | None] = {"throughput_bps": line.bps, "achieved_rate": line.bps, "bytes": line.bytes}
    udp = _UDP_RECEIVED.search(line.rest)
    if udp:  # a receiver's view (reverse mode, the server's report, or the summary)
        lost, total = float(udp["lost"]), float(udp["total"])
        pct = 100.0 * lost / total if total else float(udp["pct"])  # iperf3 prints 2 significant digits: "(29%)"
        values.update(jitter_ms=float(udp["jitter"]), lost=lost, datagrams=total, loss_pct=pct)
    elif line.rest.split() and line.rest.split()[0].isdigit():  # TCP: retransmits; UDP sender: datagrams
        values["count"] = float(line.rest.split()[0])
    return values


@dataclass
class IntervalReader:
    """Reads one run's lines as they come: the streams' sum per interval (the one stream when -P 1).

    `started_at` is when the process was started (epoch seconds): iperf3's intervals are relative
    to its test start, a few milliseconds later on a local network. The server's interval lines
    (after "Server output:", at the end of the run) are no samples of their own: their jitter and
    loss complete, in place, the sample it gave for the same interval. Each side ends an interval
    on its own timer (a busy client may print 0.00-1.01 where the server prints 0.00-1.00), so the
    match is the client interval whose start is nearest, less than half an interval away.
    """

    started_at: float
    streams: int = 0
    server: bool = False
    intervals: list[tuple[Line, Sample]] = field(default_factory=list)

    def __call__(self, text: str) -> Sample | None:
        """A sample for an interval line of the whole run, else None."""
        if text.startswith(_SERVER_OUTPUT):
            self.server = True
        if _CONNECTED.match(text):
            self.streams += 0 if self.server else 1
            return None
        line = read_line(text)
        if line is None or line.side is not None or (line.stream == "SUM") != (self.streams > 1):
            return None
        if self.server:
            self._complete(line)
            return None
        sample = Sample(t=self.started_at + line.end, values=_values(line))
        self.intervals.append((line, sample))
        return sample

    def _complete(self, line: Line) -> None:
        """The server's receiving view of one interval, added to the client's sample of it."""
        received = _values(line)
        if "jitter_ms" not in received or not self.intervals:
            return
        at = bisect.bisect_left(self.intervals, line.start, key=lambda pair: pair[0].start)  # client lines come in order
        client, sample = min(self.intervals[max(0, at - 1):at + 1], key=lambda pair: abs(pair[0].start - line.start))
        if abs(client.start - line.start) < (client.end - client.start) / 2 and "jitter_ms" not in sample.values:
            sample.values.update({key: received[key] for key in _RECEIVED_KEYS})


def _summary(lines: list[Line]) -> tuple[Line | None, Line | None]:
    """The (sender, receiver) summary lines of all streams together."""
    final = [line for line in lines if line.side]
    pick = [line for line in final if line.stream == "SUM"] or final
    sender = next((line for line in pick if line.side == "sender"), None)
    receiver = next((line for line in pick if line.side == "receiver"), None)
    return sender, receiver


def _describe(stdout: str) -> dict[str, Any]:
    starting, target = _STARTING.search(stdout), _TARGET.search(stdout)
    streams = int(starting["streams"]) if starting else None
    per_stream = float(target["bps"]) if target else None
    return {
        "protocol": starting["protocol"].lower() if starting else None, "streams": streams,
        "blksize": int(starting["blksize"]) if starting else None, "reverse": "Reverse mode" in stdout,
        "target_bitrate_per_stream": per_stream, "offered_bps": per_stream * streams if per_stream and streams else None,
    }  # fmt: skip


def _metrics(protocol: str | None, sender: Line, receiver: Line) -> dict[str, float | None]:
    throughput = receiver.bps if receiver.bytes or not sender.bytes else None  # a cut-off run never got the server's totals
    metrics: dict[str, float | None] = {"throughput_bps": throughput, "achieved_rate": throughput}
    sent, received = _values(sender), _values(receiver)
    if protocol == "tcp":
        metrics["retransmits"] = sent.get("count")
    elif protocol == "udp" and "lost" in received:
        metrics.update(sent=sent.get("datagrams"), lost=received["lost"], completed=received["datagrams"] - received["lost"],
                       loss_pct=received["loss_pct"], jitter_ms=received["jitter_ms"])  # fmt: skip
    return metrics


def _started(stdout: str) -> float:
    """The test's start from -V's `Time:` line (to the second), else 0 (samples then count from the start)."""
    match = _TIME.search(stdout)
    try:
        return parsedate_to_datetime(match[1]).timestamp() if match else 0.0
    except (TypeError, ValueError):
        return 0.0


def parse_text(stdout: str, stderr: str, exit_code: int | None) -> PointResult:
    """The whole report: receiver-side throughput (UDP loss and jitter, TCP retransmits), CPU, samples; never raises."""
    result = PointResult(parser_version=PARSER_VERSION)
    reader = IntervalReader(started_at=_started(stdout or ""))
    result.samples = [s for line in (stdout or "").splitlines() if (s := reader(line))]
    error = next((m[1] for line in ((stderr or "") + "\n" + (stdout or "")).splitlines() if (m := _ERROR.match(line.strip()))), None)
    client = (stdout or "").split(_SERVER_OUTPUT)[0]  # the server's own report repeats its receiver summary
    sender, receiver = _summary([line for text in client.splitlines() if (line := read_line(text))])
    result.extra = _describe(stdout or "")
    if sender is None or receiver is None:
        result.error = f"iperf3: {error}" if error else f"iperf3 printed no summary (exit code {exit_code}); raw output kept"
        return result
    if result.extra["protocol"] is None:  # without -V: UDP summaries carry jitter and loss
        result.extra["protocol"] = "udp" if _UDP_RECEIVED.search(receiver.rest) else "tcp"
    result.metrics = _metrics(result.extra["protocol"], sender, receiver)
    cpu = _CPU.search(stdout)
    result.extra.update(sender_bps=sender.bps, receiver_bps=receiver.bps, duration_s=receiver.end,
                        cpu_host_total_pct=float(cpu["local"]) if cpu else None, cpu_remote_total_pct=float(cpu["remote"]) if cpu else None)  # fmt: skip
    if error:
        result.error = f"iperf3: {error}"
    elif result.metrics["throughput_bps"] is None:
        result.error = "iperf3 stopped before the server reported what it received"
    return result
