"""Plan operations. Services never commit: the caller owns the transaction."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from kneeboard.config import get_settings
from kneeboard.errors import NotFound, invalid
from kneeboard.plans.expand import estimate_seconds, expand
from kneeboard.plans.models import Plan
from kneeboard.plans.schemas import TOOL_TARGET_KIND, AnyPlan, PlanPreview
from kneeboard.targets.models import Target


def check_plan(body: AnyPlan, *, session: Session) -> PlanPreview:
    """Refuse (422) a plan whose target is missing or of the wrong kind, or that has too many points."""
    found = session.get(Target, body.target_id)
    if found is None:
        raise invalid((body.tool, "target_id"), f"target {body.target_id} does not exist")
    wanted = TOOL_TARGET_KIND[body.tool]
    if found.kind != wanted:
        raise invalid((body.tool, "target_id"), f"{body.tool} needs a {wanted!r} target; target {found.id} is {found.kind!r}")
    if body.tool == "devsim":
        from kneeboard.profiles.service import document_for

        document_for(body.params.profile, session=session)
    return preview(body)


def preview(body: AnyPlan) -> PlanPreview:
    """A plan's points and estimated seconds; 422 when there are more than MAX_POINTS."""
    points = expand(body)
    cap = get_settings().max_points
    if len(points) > cap:
        raise invalid((body.tool, "phases"), f"the plan expands to {len(points)} points, more than MAX_POINTS={cap}")
    return PlanPreview(points=points, point_count=len(points), estimated_s=estimate_seconds(points, body.pause_s))


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
