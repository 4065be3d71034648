"""Reusable validated types: hosts, ports, query names, tags."""

from __future__ import annotations

import ipaddress
import re
from typing import Annotated

from pydantic import AfterValidator, Field

_HOSTNAME = re.compile(r"^(?=.{1,253}$)([A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9])?)*\.?$")
_LABEL = re.compile(r"^[A-Za-z0-9_*]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?$")


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


Host = Annotated[str, Field(min_length=1, max_length=253), AfterValidator(check_host)]
Port = Annotated[int, Field(ge=1, le=65535)]
QueryName = Annotated[str, AfterValidator(check_query_name)]
Tag = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_.:=-]+$")]
