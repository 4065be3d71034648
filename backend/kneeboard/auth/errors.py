"""Authentication errors (mapped to 401 and 403 by `kneeboard.auth.http`)."""

from __future__ import annotations

from kneeboard.errors import DomainError


class Unauthenticated(DomainError):
    """No valid credentials (HTTP 401)."""


class Forbidden(DomainError):
    """Valid credentials without the right to do this (HTTP 403)."""
