"""kbhttp's parameters: every bound of its own settings lives here."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

MAX_CA_PEM = 64 * 1024
# One or more PEM certificates and nothing else: the bundle is written to a file Kneeboard names, never a path given.
_PEM_BUNDLE = r"^\s*(?:-----BEGIN CERTIFICATE-----\r?\n[A-Za-z0-9+/=\r\n]+-----END CERTIFICATE-----\s*)+$"


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
    ca_pem: str | None = Field(default=None, max_length=MAX_CA_PEM, pattern=_PEM_BUNDLE, title="CA certificates (PEM)",
                               description="https: the CA certificates to trust, as PEM text (default: the system's)")
    tls_skip_verify: bool = Field(default=False, title="Skip certificate verification",
                                  description="https: do not verify the server's certificate (shown on the report)")
    tls_resumption: bool = Field(default=True, title="TLS session resumption",
                                 description="https: resume sessions on new connections (off: a full handshake for each)")

    @model_validator(mode="after")
    def _tls_needs_https(self) -> KbhttpParams:
        """The TLS settings only mean something for https, and a CA bundle contradicts skipping verification."""
        if self.scheme == "http":
            for name in ("ca_pem", "tls_skip_verify"):
                if getattr(self, name):
                    raise ValueError(f"{name} is for https targets (scheme is http)")
            if not self.tls_resumption:
                raise ValueError("tls_resumption is for https targets (scheme is http)")
        if self.ca_pem and self.tls_skip_verify:
            raise ValueError("ca_pem and tls_skip_verify: give a CA bundle or skip verification, not both")
        return self
