"""Reusable validated types: hosts, ports, query names, tags."""

from __future__ import annotations

import ipaddress
import re
from typing import Annotated
from urllib.parse import urlsplit

from pydantic import AfterValidator, Field

COMM = r"^[A-Za-z0-9_.][A-Za-z0-9_.-]{0,14}$"  # a process's command name as Linux keeps it (comm: 15 characters)

_HOSTNAME = re.compile(r"^(?=.{1,253}$)([A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9])?)*\.?$")
_LABEL = re.compile(r"^[A-Za-z0-9_*]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?$")


def url_host(host: str) -> str:
    """A host as it goes in a URL or before `:port`: an IPv6 address in brackets."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def check_host(value: str) -> str:
    """A hostname or an IPv4/IPv6 address; anything else is refused."""
    try:
        return str(ipaddress.ip_address(value))
    except ValueError:
        pass
    if value.rstrip(".").rsplit(".", 1)[-1].isdigit():  # "256.1.1.1", "134744072", "0x7f.1": not names
        raise ValueError("not a canonical dotted quad or IPv6 address, so refused by the target policy (numeric forms such as 134744072 or 0x7f.1 are never allowed)")
    if value.startswith("-") or not _HOSTNAME.match(value):
        raise ValueError("must be a hostname or an IP address")
    return value


def check_query_name(value: str) -> str:
    """A DNS name: no whitespace, not starting with '-', labels of letters, digits, '-', '_'."""
    if not value or any(c.isspace() for c in value):
        raise ValueError("must not be empty or contain whitespace")
    if value.startswith("-"):
        raise ValueError("must not start with '-'")
    labels = value.rstrip(".").split(".")
    if len(value) > 253 or not all(_LABEL.match(label) for label in labels):
        raise ValueError("must be a DNS name (letters, digits, '-', '_' in dot-separated labels)")
    return value


_URL_PATH = re.compile(r"^/[A-Za-z0-9._~/-]{0,200}$")


def split_url(value: str):  # noqa: ANN201 - urllib's SplitResult
    """(urlsplit(value), its port); ValueError "not a URL" when the port is not a number from 0 to 65535."""
    try:
        parts = urlsplit(value)
        return parts, parts.port
    except ValueError as exc:
        raise ValueError(f"not a URL: {exc}") from None


def check_metrics_url(value: str) -> str:
    """A metrics endpoint: http://HOST[:PORT]/PATH, no credentials, query or fragment; returned normalised."""
    parts, port = split_url(value)
    if parts.scheme != "http":
        raise ValueError("must start with http:// (e.g. http://10.77.0.2:9100/metrics)")
    if parts.username is not None or parts.password is not None or parts.query or parts.fragment or not parts.hostname:
        raise ValueError("must be http://HOST:PORT/PATH with no user, query or fragment")
    if port == 0:
        raise ValueError("port must be 1..65535")
    path = parts.path or "/metrics"
    if not _URL_PATH.match(path):
        raise ValueError("path must be letters, digits and . _ ~ / - (e.g. /metrics)")
    host = check_host(parts.hostname)
    return f"http://{url_host(host)}:{port or 80}{path}"


def metrics_host(url: str) -> str:
    """The host a checked metrics URL names (what the target policy judges)."""
    return urlsplit(url).hostname or ""


Host = Annotated[str, Field(min_length=1, max_length=253), AfterValidator(check_host)]
MetricsUrl = Annotated[str, Field(min_length=8, max_length=300), AfterValidator(check_metrics_url)]
Port = Annotated[int, Field(ge=1, le=65535)]
MAX_CA_PEM = 64 * 1024
# One or more PEM certificates and nothing else: a bundle is written to a file Kneeboard names, never a path given.
PemBundle = Annotated[str, Field(max_length=MAX_CA_PEM, pattern=r"^\s*(?:-----BEGIN CERTIFICATE-----\r?\n[A-Za-z0-9+/=\r\n]+-----END CERTIFICATE-----\s*)+$")]
QueryName = Annotated[str, AfterValidator(check_query_name)]


def check_tls_trust(ca_pem: str | None, skip_verify: bool, applies: bool, needs: str) -> None:
    """A CA bundle or skip-verify only where TLS is spoken (`needs` says where), and never both."""
    if not applies:
        for name, value in (("ca_pem", ca_pem), ("tls_skip_verify", skip_verify)):
            if value:
                raise ValueError(f"{name} is for {needs}")
    if ca_pem and skip_verify:
        raise ValueError("ca_pem and tls_skip_verify: give a CA bundle or skip verification, not both")


Tag = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_.:=-]+$")]
