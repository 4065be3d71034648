"""dnsperf's parameters: every bound of its own settings lives here."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from kneeboard.validators import QueryName

MAX_OUTSTANDING = 65_536  # dnsperf's built-in maximum per thread (NQIDS; Kneeboard runs one thread)
MAX_OUTSTANDING_DEFAULT = 1_000  # 100k q/s at 10 ms, or 30k q/s at 33 ms, before the cap binds; costs dnsperf no memory

QType = Literal["A", "AAAA", "CNAME", "MX", "NS", "PTR", "SOA", "SRV", "TXT", "CAA", "DS", "DNSKEY", "HTTPS", "ANY"]


class DnsperfParams(BaseModel):
    """dnsperf's own parameters: the query names (one repeated, or a list) and record type."""

    model_config = ConfigDict(extra="forbid", strict=True, title="dnsperf parameters")
    names: list[QueryName] = Field(default_factory=lambda: ["www.example.lab"], min_length=1, max_length=100_000,
                                   title="Query names", description="Names queried in turn (dnsperf -d file)")
    qtype: QType = Field(default="A", title="Record type")
    timeout_s: float = Field(default=5.0, ge=0.1, le=60, title="Query timeout (s)", description="dnsperf -t: a query unanswered this long is lost")
    max_outstanding: int = Field(default=MAX_OUTSTANDING_DEFAULT, ge=1, le=MAX_OUTSTANDING, title="Max queries outstanding",
                                 description="dnsperf -q: queries in flight at most; it caps the rate at this ÷ latency (Little's law), "
                                             "dnsperf's own default of 100 at 29k q/s when answers take 3.4 ms")
    latency_capture: bool = Field(default=True, title="Capture latency percentiles",
                                  description="dnsperf -v read by kblat into HDR histograms (p50..p99.9); costs some of dnsperf's top rate")
