"""Five-field cron expressions read in a time zone (croniter), and when they fire."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timezone
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from croniter import croniter


def check_cron(expression: str) -> str:
    """The expression, normalised to single spaces; ValueError unless it has five valid fields."""
    fields = expression.split()
    if len(fields) != 5:
        raise ValueError(f"{expression!r}: a cron expression has five fields (minute hour day-of-month month day-of-week)")
    text = " ".join(fields)
    if not croniter.is_valid(text):
        raise ValueError(f"{expression!r} is not a valid cron expression")
    return text


def check_timezone(name: str) -> str:
    """An IANA time zone name; ValueError otherwise."""
    if name not in available_timezones() and name != "UTC":
        raise ValueError(f"{name!r} is not an IANA time zone (e.g. UTC, Europe/Paris)")
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"{name!r} is not an IANA time zone") from None
    return name


def fire_times(expression: str, zone: str, after: datetime) -> Iterator[datetime]:
    """The moments the cron fires strictly after `after`, as UTC datetimes, in order."""
    local = after.astimezone(ZoneInfo(zone))
    for moment in croniter(expression, local, ret_type=datetime):
        yield moment.astimezone(timezone.utc)


def next_fire(expression: str, zone: str, after: datetime) -> datetime:
    """The first moment the cron fires after `after` (UTC)."""
    return next(fire_times(expression, zone, after))
