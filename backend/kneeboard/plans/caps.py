"""Per-role load caps: a plan's points checked against the caps of the role that creates or launches it. Pure."""

from __future__ import annotations

from kneeboard.errors import PolicyRefused
from kneeboard.plans.schemas import PointPreview
from kneeboard.policy.check import POLICY_URL
from kneeboard.policy.schemas import RoleCaps

_FIELDS = (("offered_rate", "max_rate", "rate"), ("concurrency", "max_concurrency", "concurrency"),
           ("duration_s", "max_duration_s", "duration_s"))  # fmt: skip


def check_caps(points: list[PointPreview], caps: RoleCaps | None, *, role: str, tool: str) -> None:
    """PolicyRefused naming the first phase field above the role's cap (rate, concurrency or duration)."""
    if caps is None:
        return
    for point in points:
        for attribute, cap_name, field in _FIELDS:
            value, cap = getattr(point, attribute), getattr(caps, cap_name)
            if value is not None and cap is not None and value > cap:
                field = "high" if field == "rate" and point.phase == "search" else field  # a search's first point is the top of its range
                raise PolicyRefused((tool, "phases", point.phase_index, field),
                                    f"{field} {value:g} is above the target policy's {cap_name} {cap:g} for the "
                                    f"{role} role (see {POLICY_URL})")  # fmt: skip
