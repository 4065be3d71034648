"""Same-origin checks for cookie-authenticated writes (CSRF): Origin, or failing that Referer, must be the site itself."""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.datastructures import Headers

_DEFAULT_PORT = {"http": 80, "https": 443}


def _origin(url: str) -> tuple[str, str, int] | None:
    try:
        parts = urlsplit(url)
        scheme, host = parts.scheme.lower(), (parts.hostname or "").lower()
        return (scheme, host, parts.port or _DEFAULT_PORT.get(scheme, 0)) if scheme and host else None
    except ValueError:
        return None


def own_origin(scope: dict) -> tuple[str, str, int] | None:
    """scheme://host:port of the request as the browser addressed it (the Host header)."""
    return _origin(f"{scope.get('scheme', 'http')}://{Headers(scope=scope).get('host', '')}")


def claimed_origin(scope: dict) -> str | None:
    """The Origin header, else the Referer, else None."""
    headers = Headers(scope=scope)
    return headers.get("origin") or headers.get("referer")


def same_origin(scope: dict, *, required: bool = True) -> bool:
    """Whether the request comes from the site's own pages; with `required=False` an absent claim passes."""
    claim = claimed_origin(scope)
    if claim is None:
        return not required
    theirs, ours = _origin(claim), own_origin(scope)
    return theirs is not None and theirs == ours
