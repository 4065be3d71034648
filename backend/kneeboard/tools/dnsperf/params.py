"""dnsperf's parameters: every bound of its own settings lives here."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from kneeboard.validators import PemBundle, Port, QueryName, check_tls_trust

MAX_OUTSTANDING = 65_536  # dnsperf's built-in maximum per thread (NQIDS; Kneeboard runs one thread)
MAX_OUTSTANDING_DEFAULT = 1_000  # 100k q/s at 10 ms, or 30k q/s at 33 ms, before the cap binds; costs dnsperf no memory

Mode = Literal["udp", "tcp", "dot", "doh"]
TLS_MODES = ("dot", "doh")  # dnsperf 2.10 opens these without verifying the certificate, nor sending SNI
DOH_PATH = "/dns-query"  # RFC 8484's example path, dnsperf's default and the only one CoreDNS answers
DOH_METHOD = "GET"  # dnsperf 2.10's POST waits ~40 ms per query for its second segment (see docs/plans.md)

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
    mode: Mode = Field(default="udp", title="Transport",
                       description="dnsperf -m: udp, tcp, dot (DNS over TLS) or doh (DNS over HTTPS, HTTP/2); each client is a "
                                   "connection. dnsperf 2.10 neither verifies the server's certificate nor sends SNI: before a "
                                   "dot or doh point Kneeboard verifies it itself, and a certificate that fails fails the point")
    port: Port | None = Field(default=None, title="Port",
                              description="The server's port for this transport (default: the target's), e.g. the lab "
                                          "CoreDNS's DoT on 853 and DoH on 8443")
    doh_path: str | None = Field(default=None, max_length=2000, pattern=r"^/(?:[\x21\x22\x24\x26-\x3e\x40-\x7e]|%[0-9A-Fa-f]{2})*$",
                                 title="DoH path", description=f"doh: the URI's path (default {DOH_PATH}); printable ASCII "
                                                               "starting with '/', no spaces, '?' or '#', '%' only as %XX")
    doh_method: Literal["GET", "POST"] | None = Field(default=None, title="DoH method",
                                                      description="doh: GET (default; the query in ?dns=) or POST")
    ca_pem: PemBundle | None = Field(default=None, title="CA certificates (PEM)",
                                     description="dot and doh: the CA certificates Kneeboard's own check before the point "
                                                 "trusts, as PEM text (default: the lab's for the lab, else the system's)")
    tls_skip_verify: bool = Field(default=False, title="Skip certificate verification",
                                  description="dot and doh: Kneeboard does not verify the certificate before the point "
                                              "either (shown on the report); dnsperf never does")

    @model_validator(mode="after")
    def _doh_settings_need_doh(self) -> DnsperfParams:
        """The DoH path and method only mean something over DoH, the TLS trust only over dot and doh."""
        for name in ("doh_path", "doh_method"):
            if getattr(self, name) is not None and self.mode != "doh":
                raise ValueError(f"{name} is for mode doh (mode is {self.mode})")
        check_tls_trust(self.ca_pem, self.tls_skip_verify, self.mode in TLS_MODES, f"modes dot and doh (mode is {self.mode})")
        return self
