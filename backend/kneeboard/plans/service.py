"""Plan operations. Services never commit: the caller owns the transaction."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import select
from sqlalchemy.orm import Session

from kneeboard.config import get_settings
from kneeboard.errors import Invalid, NotFound, invalid
from kneeboard.plans.events_check import check_events
from kneeboard.plans.expand import count_points, estimate_range, expand, most_passes, search_estimates
from kneeboard.plans.models import Plan
from kneeboard.plans.schemas import AnyPlan, PlanPreview, params_of
from kneeboard.fanout.check import check_agents
from kneeboard.targets.models import Target
from kneeboard.tools.registry import adapter
from kneeboard.variant_settings import SettingRefused, validate_setting


def check_plan(body: AnyPlan, *, session: Session) -> PlanPreview:
    """Everything a plan must pass before it is stored or run, else Invalid (422) naming the field.

    The target exists and suits the tool; stored documents it names exist; variants name known
    lab actions within range; it expands to at most MAX_POINTS; and the tool's own plan-level
    check (its parameters joined with every point) passes.
    """
    tool = adapter(body.tool)
    found = session.get(Target, body.target_id)
    if found is None:
        raise invalid((body.tool, "target_id"), f"target {body.target_id} does not exist")
    if found.kind not in tool.target_kinds:
        raise invalid((body.tool, "target_id"), f"{body.tool} needs a {' or '.join(map(repr, tool.target_kinds))} target; target {found.id} is {found.kind!r}")
    if tool.stored_profile_param:
        from kneeboard.profiles.service import document_for

        param = tool.stored_profile_param
        document_for(getattr(body.params, param), session=session, loc=(body.tool, "params", param))
    _check_variants(body)
    check_events(body, found.host, session=session)
    result = preview(body)
    check_agents(body, result.points, session=session)
    problems = [problem for label in dict.fromkeys(p.variant for p in result.points)
                for problem in tool.check_points(tool.read_params(params_of(body.model_dump(), label)),
                                                 [p for p in result.points if p.variant == label], found.host)]
    if problems:
        errors = [((body.tool, *loc), message) for loc, message in problems]
        raise Invalid(*errors[0], more=errors[1:])
    return result


def _check_variants(body: AnyPlan) -> None:
    for i, variant in enumerate(body.variants):
        for name, value in variant.set.items():
            try:
                variant.set[name] = validate_setting(name, value)
            except SettingRefused as exc:
                raise invalid((body.tool, "variants", i, "set", name), str(exc) if name in str(exc) else f"{name}: {exc}") from None


def preview(body: AnyPlan) -> PlanPreview:
    """A plan's points and estimated seconds; 422 when there are more than MAX_POINTS."""
    cap, count = get_settings().max_points, count_points(body)
    if count > cap:  # counted before expanding: a 400×400 phase is refused without building 160,000 points
        raise invalid((body.tool, "phases"), f"the plan expands to {count} points, more than MAX_POINTS={cap}")
    points, searches = expand(body), search_estimates(body)
    least, most = estimate_range(points, body.pause_s, searches)
    most *= most_passes(body) / body.repeat  # repeat until decided: its first passes at least, its most passes at most
    return PlanPreview(points=points, point_count=len(points), point_count_max=count, estimated_s=most, estimated_min_s=least,
                       searches=searches)


def list_plans(*, session: Session) -> list[Plan]:
    """All plans, newest first."""
    return list(session.scalars(select(Plan).order_by(Plan.id.desc())))


def get_plan(plan_id: int, *, session: Session) -> Plan:
    """One plan, or NotFound."""
    plan = session.get(Plan, plan_id)
    if plan is None:
        raise NotFound("plan", plan_id)
    return plan


def create_plan(body: AnyPlan, *, session: Session) -> Plan:
    """Validate and store a plan."""
    check_plan(body, session=session)
    plan = Plan(name=body.name, tool=body.tool, target_id=body.target_id, body=body.model_dump(mode="json"))
    session.add(plan)
    session.flush()
    return plan


def replace_plan(plan_id: int, body: AnyPlan, *, session: Session) -> Plan:
    """Replace a plan's definition (campaigns already launched keep their frozen copy)."""
    plan = get_plan(plan_id, session=session)
    check_plan(body, session=session)
    plan.name, plan.tool, plan.target_id = body.name, body.tool, body.target_id
    plan.body = body.model_dump(mode="json")
    session.flush()
    return plan


def delete_plan(plan_id: int, *, session: Session) -> None:
    """Delete a plan; its campaigns stay, with their frozen copies."""
    session.delete(get_plan(plan_id, session=session))


BASELINE_CHECKS: list[Callable[[Plan, int, Session], None]] = []  # what a pinned campaign must be (campaigns/, at start)


def baseline_checked_by(check: Callable[[Plan, int, Session], None]) -> None:
    """Register `check(plan, campaign_id, session)`, raising Invalid on `campaign_id` when that campaign cannot be the
    plan's baseline (campaigns/service.py, at start: plans/ imports no campaign; none registered, no pin is taken)."""
    if check not in BASELINE_CHECKS:
        BASELINE_CHECKS.append(check)


def pin_baseline(plan_id: int, campaign_id: int | None, *, session: Session) -> Plan:
    """Pin the campaign this plan's reports (and `kneeboard run --baseline latest-pinned`) compare against; None unpins."""
    plan = get_plan(plan_id, session=session)
    if campaign_id is not None:
        if not BASELINE_CHECKS:
            raise invalid(("campaign_id",), "no campaign can be pinned: nothing checks a baseline in this process")
        for check in BASELINE_CHECKS:
            check(plan, campaign_id, session)
    plan.baseline_campaign_id = campaign_id
    session.flush()
    return plan
