"""What a public document may carry: a share link's page (its JSON) and its HTML and Markdown exports pass through
`public` here, the one list of what a reader outside the team is not shown. Pure: no database, no settings.

A key on REFUSED is emptied (None) wherever it occurs; every string it held, and any address the caller names (the
team's Grafana, its Prometheus servers), is then cut out of every other string of the document too (a warning that
quotes an exporter's URL, a comparison's row of differing target settings).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

WITHHELD = "[withheld]"  # what stands where an address was cut out of a text
ANY = "*"  # any element of a list

# Key paths (a suffix of where a key sits; ANY for a list's elements), each with why a share link's reader goes without it.
REFUSED: tuple[tuple[tuple[str, ...], str], ...] = (
    (("grafana_url",), "the team's Grafana dashboard (GRAFANA_URL)"),
    (("metrics_url",), "a target's node_exporter, scraped by the node monitor"),
    (("exporters", ANY, "url"), "a target's exporters, scraped after each point"),
    (("prometheus", "url"), "a registered Prometheus server"),
    (("prometheus", "selector"), "a Prometheus source's series selector: it names the servers' instance addresses"),
)
SHORTEST = 6  # an address shorter than this ("a:1") is not cut out of texts: it would cut words


def _refused(path: tuple[str, ...]) -> bool:
    """Whether the key at `path` (list elements as ANY) is on REFUSED."""
    return any(len(path) >= len(rule) and all(r in (ANY, p) for r, p in zip(rule, path[-len(rule):])) for rule, _ in REFUSED)


def refused_values(document: Any, path: tuple[str, ...] = ()) -> list[str]:
    """The strings the document holds under REFUSED keys (a target snapshot's exporter URLs, a Grafana link)."""
    if isinstance(document, dict):
        return [v for key, value in document.items() for v in
                ([value] if _refused((*path, str(key))) and isinstance(value, str) else refused_values(value, (*path, str(key))))]  # fmt: skip
    if isinstance(document, (list, tuple)):
        return [v for value in document for v in refused_values(value, (*path, ANY))]
    return []


def _addresses(values: Iterable[str]) -> list[str]:
    """Each value and, for a URL that names a port, its host:port too (a warning may quote only that), longest first.
    A host without a port is left in texts: it may be the site's own, behind the same proxy as the team's Grafana."""
    found = set()
    for value in values:
        value = value.strip().rstrip("/")
        found.add(value)
        try:
            parts = urlsplit(value)
            found |= {parts.netloc.rsplit("@", 1)[-1]} if parts.port else set()
        except ValueError:
            continue
    return sorted((a for a in found if len(a) >= SHORTEST), key=len, reverse=True)


def _cut(text: str, addresses: list[str]) -> str:
    for address in addresses:
        if address in text:
            text = text.replace(address, WITHHELD)
    return text


def _redacted(value: Any, path: tuple[str, ...], addresses: list[str]) -> Any:
    if isinstance(value, dict):
        return {key: None if _refused((*path, str(key))) else _redacted(inner, (*path, str(key)), addresses) for key, inner in value.items()}
    if isinstance(value, (list, tuple)):
        return [_redacted(inner, (*path, ANY), addresses) for inner in value]
    if isinstance(value, str):
        return _cut(value, addresses)
    return value


def public(document: Any, *, addresses: Iterable[str] = ()) -> Any:
    """The document as a share link may show it: REFUSED keys emptied wherever they occur, and their strings and
    `addresses` (the team's Grafana and Prometheus URLs, other campaigns' exporter URLs) cut out of every text.
    A copy: JSON-like values (dicts, lists, scalars) only; anything else passes as it is."""
    return _redacted(document, (), _addresses([*refused_values(document), *(a for a in addresses if a)]))
