"""Helpers the tool adapters share: unit suffixes, parameter checks, reading raw output.

Unit suffixes follow the tools' own conventions: wrk prints latency with time units,
request rates with decimal (1000) multiples and byte counts with binary (1024)
multiples written `KB`/`MB`/`GB`.
"""

from __future__ import annotations

import ipaddress
import json
import math
import re
from typing import Any

from kneeboard.tools.base import ToolInputError
from kneeboard.validators import url_host  # noqa: F401 - where the tools take it from

_TIME_MS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0, "h": 3_600_000.0}
_DECIMAL = {"": 1.0, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15}
_BINARY = {"B": 1, "KB": 2**10, "MB": 2**20, "GB": 2**30, "TB": 2**40, "PB": 2**50}
_SUFFIXED = re.compile(r"^\s*([-+]?(?:\d+(?:\.\d*)?|\.\d+|nan|inf))\s*([A-Za-z]*)\s*$", re.IGNORECASE)
_HOSTNAME_LABEL = re.compile(r"^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$")


# --- numbers with unit suffixes -------------------------------------------------


def text_number(text: str | None) -> float | None:
    """A finite float from text, or None for empty, `nan`, `-nan`, `inf` or garbage."""
    if text is None:
        return None
    try:
        value = float(text.strip().rstrip("%"))
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _split_suffix(text: str | None) -> tuple[float, str] | None:
    match = _SUFFIXED.match(text or "")
    if not match:
        return None
    value = text_number(match.group(1))
    return None if value is None else (value, match.group(2))


def duration_ms(text: str | None) -> float | None:
    """`159.64us`, `1.26ms`, `3.00s`, `2m`, `1h` → milliseconds (None if unreadable)."""
    parts = _split_suffix(text)
    if parts is None or parts[1] not in _TIME_MS:
        return None
    return parts[0] * _TIME_MS[parts[1]]


def decimal_count(text: str | None) -> float | None:
    """`44.35k`, `1.2M`, `1.00` → a plain number using decimal (1000) multiples."""
    parts = _split_suffix(text)
    if parts is None or parts[1] not in _DECIMAL:
        return None
    return parts[0] * _DECIMAL[parts[1]]


def binary_bytes(text: str | None) -> float | None:
    """`666.51MB`, `33.12KB`, `590.00B` → bytes, using binary (1024) multiples."""
    parts = _split_suffix(text)
    if parts is None or parts[1] not in _BINARY:
        return None
    return parts[0] * _BINARY[parts[1]]


def ms_from_us(value: Any) -> float | None:
    """A microsecond figure from JSON (number or null) → milliseconds."""
    return value / 1000.0 if is_number(value) else None


def is_number(value: Any) -> bool:
    """True for a finite int/float that is not a bool."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


# --- parameter checks (build) ---------------------------------------------------


def require_int(name: str, value: Any, low: int, high: int) -> int:
    """An integral number within [low, high], else ToolInputError naming `name`."""
    if not is_number(value) or value != int(value):
        raise ToolInputError(f"{name}: must be a whole number, got {value!r}")
    if not low <= value <= high:
        raise ToolInputError(f"{name}: must be between {low} and {high}, got {value!r}")
    return int(value)


def require_text(name: str, value: Any) -> str:
    """A non-empty string that cannot be read as an option (no leading '-')."""
    if not isinstance(value, str) or not value:
        raise ToolInputError(f"{name}: must be a non-empty string, got {value!r}")
    if value.startswith("-"):
        raise ToolInputError(f"{name}: must not start with '-', got {value!r}")
    return value


def host_port(host: str, port: int) -> str:
    """`host:port`, an IPv6 address bracketed (`[::1]:9000`)."""
    return f"{url_host(host)}:{port}"


def require_host(name: str, value: Any) -> str:
    """An IP address or an RFC 1123 hostname, else ToolInputError naming `name`."""
    host = require_text(name, value)
    try:
        return str(ipaddress.ip_address(host))
    except ValueError:
        pass
    labels = host[:-1].split(".") if host.endswith(".") else host.split(".")
    numeric_tld = labels[-1].isdigit()  # "256.1.1.1" is a bad address, not a name
    if len(host) > 253 or numeric_tld or not all(_HOSTNAME_LABEL.match(label) for label in labels):
        raise ToolInputError(f"{name}: not an IP address or hostname: {value!r}")
    return host


# --- reading raw output (parse) -------------------------------------------------


def failure_reason(tool: str, stderr: str, exit_code: int | None) -> str:
    """A one-line reason for a run without usable output: stderr's first line, or the exit code."""
    lines = [line.strip() for line in (stderr or "").splitlines() if line.strip()]
    if lines:
        return f"{tool}: {lines[0]}" if not lines[0].startswith(tool) else lines[0]
    if exit_code is None:
        return f"{tool}: no output (process did not exit normally)"
    return f"{tool}: no output (exit code {exit_code})"


def last_json_line(text: str) -> dict[str, Any] | None:
    """The last line starting with '{' parsed as a JSON object, or None."""
    for line in reversed((text or "").splitlines()):
        if line.startswith("{"):
            try:
                value = json.loads(line)
            except ValueError:
                return None
            return value if isinstance(value, dict) else None
    return None


def decode_items(text: str, position: int) -> list[Any]:
    """The complete values of a JSON array whose '[' ends at `position`, up to a broken one.

    For output cut short (SIGTERM) or with its middle dropped by a bounded capture.
    """
    decoder, items = json.JSONDecoder(), []
    while True:
        while position < len(text) and text[position] in " \t\r\n,":
            position += 1
        if position >= len(text) or text[position] in "]":
            return items
        try:
            item, position = decoder.raw_decode(text, position)
        except ValueError:
            return items
        items.append(item)


def dig(data: Any, *keys: str) -> Any:
    """`data[k1][k2]…` or None when any level is missing or not a mapping."""
    for key in keys:
        if not isinstance(data, dict):
            return None
        data = data.get(key)
    return data


def dig_number(data: Any, *keys: str) -> float | None:
    """Like dig() but only a finite number (bools and strings give None)."""
    value = dig(data, *keys)
    return float(value) if is_number(value) else None


PERCENTILES = ("p50", "p90", "p99", "p999")  # the latency percentiles every load tool reports, as latency_<p>_ms


def percentiles(record: dict[str, Any] | None, prefix: str = "") -> dict[str, float | None]:
    """A tool's JSON record's `{prefix}p50_ms`… under Kneeboard's metric names (None when absent or no record)."""
    return {f"latency_{p}_ms": (record or {}).get(f"{prefix}{p}_ms") for p in PERCENTILES}
