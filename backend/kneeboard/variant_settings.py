"""The registry of variant settings: the only way a plan's variant changes the environment (`set: {name: value}`).

A provider owns a prefix — `lab.` (the lab's actions on the worker's host, lab/actions.py) and `host.` (a server host's
own actions file, applied by its observer) — and offers names, validate, apply, read, defaults and restore. The
registry imports none of its providers: each registers at start (kneeboard/extensions.py). A name no provider owns, or
a value its provider refuses, raises SettingRefused (the plan check answers 422); a valid value the system could not
take raises SettingFailed (the variant fails with the reason).
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

CAMPAIGN: ContextVar[int | None] = ContextVar("variant_settings_campaign", default=None)  # whose variant is applied


class SettingRefused(ValueError):
    """An unknown setting or a value its provider does not allow; `field` names what was wrong (→ HTTP 422)."""

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class SettingFailed(RuntimeError):
    """A valid setting the system could not apply (the lab is not up, the observer did not answer…)."""


@dataclass(frozen=True)
class SettingProvider:
    """The settings under one prefix and how to check, apply, read and put them back."""

    prefix: str  # "lab." or "host.": every name it owns starts with it
    names: Callable[[], list[str]]
    validate: Callable[[str, Any], Any]  # (name, value) → the normalized value, or SettingRefused
    apply: Callable[[str, Any], Any]  # (name, value) → the value read back; SettingRefused / SettingFailed
    read: Callable[[str], Any]  # name → the current value, None when it cannot be read
    defaults: Callable[[Iterable[str]], dict[str, Any]] = lambda names: {}  # what an unset name runs with, and goes back to
    restore: Callable[[str, Any], Any] | None = None  # (name, value found before) → read back; None: apply puts it back
    facts: Callable[[list[str]], dict[str, str]] | None = None  # (the plan's names of this prefix) → the facts where they apply


PROVIDERS: dict[str, SettingProvider] = {}  # prefix → provider, filled at start


def register(provider: SettingProvider) -> None:
    """Add a provider (again: replaced in place)."""
    PROVIDERS[provider.prefix] = provider


def provider_of(name: str) -> SettingProvider:
    """The provider owning `name`; SettingRefused when none does."""
    for prefix, provider in PROVIDERS.items():
        if name.startswith(prefix):
            return provider
    known = ", ".join(f"{p}*" for p in PROVIDERS) or "none registered"
    raise SettingRefused("action", f"unknown setting {name!r} (known prefixes: {known})")


def validate_setting(name: str, value: Any) -> Any:
    """The normalized value of a registered setting; SettingRefused for an unknown name or a value not allowed."""
    return provider_of(name).validate(name, value)


def apply_setting(name: str, value: Any) -> Any:
    """Apply a setting; returns the value read back. Raises SettingRefused / SettingFailed."""
    return provider_of(name).apply(name, value)


def read_setting(name: str) -> Any:
    """The current value of a registered setting (None when it cannot be read)."""
    return provider_of(name).read(name)


def restore_setting(name: str, value: Any) -> Any:
    """Put a setting back to the value found before the campaign; returns the value read back."""
    provider = provider_of(name)
    return (provider.restore or provider.apply)(name, value)


def defaults(names: Iterable[str]) -> dict[str, Any]:
    """The default of each named setting whose provider has one (an unset name runs with it; a campaign goes back to it)."""
    found: dict[str, Any] = {}
    for provider, owned in _by_provider(names):
        found.update(provider.defaults(owned))
    return found


@contextmanager
def for_campaign(campaign_id: int) -> Iterator[None]:
    """Within: the settings applied, read and restored are campaign `campaign_id`'s (a provider that acts through the
    campaign's own parts, such as its observer, reads CAMPAIGN)."""
    token = CAMPAIGN.set(campaign_id)
    try:
        yield
    finally:
        CAMPAIGN.reset(token)


def facts_taken(names: Iterable[str]) -> dict[str, str]:
    """The facts of where the plan's settings (`names`, every variant's) apply, from each provider owning some: what
    it read after applying the variant's (a server host's, through its observer), or read now for a variant that
    sets none of them."""
    found: dict[str, str] = {}
    for provider, owned in _by_provider(names):
        if provider.facts is not None and owned:
            found.update(provider.facts(owned))
    return found


def _by_provider(names: Iterable[str]) -> list[tuple[SettingProvider, list[str]]]:
    """Each registered provider with the names it owns among `names` (possibly none)."""
    names = list(names)
    return [(provider, [n for n in names if n.startswith(prefix)]) for prefix, provider in PROVIDERS.items()]


def names() -> list[str]:
    """Every registered setting's name, provider by provider."""
    return [name for provider in PROVIDERS.values() for name in provider.names()]
