"""The project's own errors. Services raise these; `api_errors` maps them to HTTP in one place."""

from __future__ import annotations


class DomainError(Exception):
    """Base of every error a service raises on purpose."""


class NotFound(DomainError):
    """An id that does not exist (HTTP 404)."""

    def __init__(self, what: str, ident: object) -> None:
        super().__init__(f"{what} {ident} not found")


class Conflict(DomainError):
    """A request that the current state does not allow (HTTP 409)."""


class Gone(DomainError):
    """Something that existed but is no longer available, e.g. an expired link (HTTP 410)."""


class TooMany(DomainError):
    """Too many requests of this kind now; try again after `retry_after_s` (HTTP 429 with Retry-After)."""

    def __init__(self, message: str, retry_after_s: int) -> None:
        super().__init__(message)
        self.retry_after_s = max(1, int(retry_after_s))


class Invalid(DomainError):
    """Input refused, naming the field at `loc` (HTTP 422, shaped like pydantic's errors).

    `where` is "body" or "query"; `errors` may carry several (loc, message) pairs.
    """

    def __init__(self, loc: tuple[str | int, ...], message: str, *, where: str = "body",
                 more: list[tuple[tuple[str | int, ...], str]] | None = None) -> None:
        super().__init__(message)
        self.where = where
        self.errors = [(loc, message), *(more or [])]

    def details(self) -> list[dict]:
        """pydantic-style error dicts: type, loc (with "body"/"query" first), msg."""
        return [{"type": "value_error", "loc": (self.where, *loc), "msg": msg, "input": None} for loc, msg in self.errors]


class PolicyRefused(Invalid):
    """An address or load the target policy does not allow (HTTP 422 naming the policy)."""


def invalid(loc: tuple[str | int, ...], message: str) -> Invalid:
    """A 422 naming the body field at `loc`."""
    return Invalid(loc, message)


def invalid_query(name: str, message: str) -> Invalid:
    """A 422 naming a query parameter."""
    return Invalid((name,), message, where="query")


class Unavailable(DomainError):
    """A feature this installation cannot serve now, saying why (HTTP 503)."""


class TooLarge(DomainError):
    """A result beyond its size cap (HTTP 413)."""
