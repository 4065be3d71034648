"""Plan routes."""

from __future__ import annotations

from fastapi import APIRouter, Response

from kneeboard.deps import SessionDep
from kneeboard.plans import service, templates
from kneeboard.plans.schemas import PlanBody, PlanOut, PlanPreview, PlanTemplate

router = APIRouter(prefix="/plans", tags=["plans"])


@router.get("", response_model=list[PlanOut])
def list_plans(session: SessionDep):
    """All plans, newest first."""
    return [p.out() for p in service.list_plans(session=session)]


@router.post("", response_model=PlanOut, status_code=201)
def create_plan(body: PlanBody, session: SessionDep):
    """Store a plan."""
    return service.create_plan(body, session=session).out()


@router.post("/preview", response_model=PlanPreview)
def preview_plan(body: PlanBody, session: SessionDep):
    """A plan's points and estimated duration; runs nothing, stores nothing."""
    return service.check_plan(body, session=session)


@router.get("/templates", response_model=list[PlanTemplate])
def list_templates():
    """Built-in plans to start from."""
    return templates.list_templates()


@router.get("/templates/{template_id}", response_model=PlanTemplate)
def get_template(template_id: str):
    """One built-in plan."""
    return templates.get_template(template_id)


@router.get("/{plan_id}", response_model=PlanOut)
def get_plan(plan_id: int, session: SessionDep):
    """One plan."""
    return service.get_plan(plan_id, session=session).out()


@router.put("/{plan_id}", response_model=PlanOut)
def replace_plan(plan_id: int, body: PlanBody, session: SessionDep):
    """Replace a plan."""
    return service.replace_plan(plan_id, body, session=session).out()


@router.delete("/{plan_id}", status_code=204)
def delete_plan(plan_id: int, session: SessionDep):
    """Delete a plan."""
    service.delete_plan(plan_id, session=session)
    return Response(status_code=204)
