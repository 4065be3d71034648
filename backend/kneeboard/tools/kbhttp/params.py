"""kbhttp's parameters: every bound of its own settings lives here."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from kneeboard.validators import PemBundle, check_tls_trust



class KbhttpParams(BaseModel):
    """kbhttp's own parameters (the point's rate is requests/s in all, its concurrency the connections)."""

    model_config = ConfigDict(extra="forbid", strict=True, title="kbhttp parameters")
    path: str = Field(default="/", max_length=2000, pattern=r"^/(?:[\x21\x22\x24\x26-\x7e]|%[0-9A-Fa-f]{2})*$", title="Path",
                      description="Printable ASCII starting with '/', no spaces, no '#', '%' only as %XX")
    method: Literal["GET", "HEAD"] = Field(default="GET", title="Method")
    timeout_s: float = Field(default=2.0, ge=0.1, le=60, title="Request timeout (s)",
                             description="A request unanswered this long (after it was sent) counts as a timeout")
    scheme: Literal["http", "https"] = Field(default="http", title="Scheme",
                                             description="https: SNI and certificate verification use the target's name")
    ca_pem: PemBundle | None = Field(default=None, title="CA certificates (PEM)",
                               description="https: the CA certificates to trust, as PEM text (default: the system's)")
    tls_skip_verify: bool = Field(default=False, title="Skip certificate verification",
                                  description="https: do not verify the server's certificate (shown on the report)")
    tls_resumption: bool = Field(default=True, title="TLS session resumption",
                                 description="https: resume sessions on new connections (off: a full handshake for each)")
    outcomes: bool = Field(default=False, title="Outcomes per 10 ms",
                           description="Count every request's outcome (answered, connect, reset, timeout, 5xx, 4xx…) per 10 ms "
                                       "of its intended send time: the error window, detection and recovery times (docs/failover.md)")
    count_header: str | None = Field(default=None, min_length=1, max_length=64, pattern=r"^[0-9A-Za-z][!#$%&'*+.^_`|~0-9A-Za-z-]*$",
                                     title="Count a response header",
                                     description="A response header whose values are counted per 10 ms and per connection "
                                                 "(e.g. X-Backend: which backend answered); at most 64 values, the rest as "
                                                 "'other'. Turns the outcomes on")
    cookies: bool = Field(default=False, title="Cookie jar per connection",
                          description="Each connection keeps the cookies its responses set and sends them back "
                                      "(a balancer's cookie persistence)")

    @model_validator(mode="after")
    def _tls_needs_https(self) -> KbhttpParams:
        """The TLS settings only mean something for https, and a CA bundle contradicts skipping verification."""
        check_tls_trust(self.ca_pem, self.tls_skip_verify, self.scheme == "https", "https targets (scheme is http)")
        if self.scheme == "http" and not self.tls_resumption:
            raise ValueError("tls_resumption is for https targets (scheme is http)")
        return self
