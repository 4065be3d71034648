"""Plan routes."""

from __future__ import annotations

from fastapi import APIRouter, Query, Request, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import PlainTextResponse

from kneeboard.audit.service import record_by
from kneeboard.auth.deps import CurrentUser
from kneeboard.deps import SessionDep
from kneeboard.plans import service, templates, yaml_io
from kneeboard.plans import policy_check as policy
from kneeboard.plans.schemas import BaselinePin, PlanBody, PlanOut, PlanPreview, PlanTemplate

router = APIRouter(prefix="/plans", tags=["plans"])


@router.get("", response_model=list[PlanOut])
def list_plans(session: SessionDep):
    """All plans, newest first."""
    return [p.out() for p in service.list_plans(session=session)]


@router.post("", response_model=PlanOut, status_code=201)
def create_plan(body: PlanBody, session: SessionDep, user: CurrentUser):
    """Store a plan."""
    plan = service.create_plan(body, session=session)
    policy.check_plan(body, role=user.role, session=session)
    record_by(session, user, "create", "plan", plan.id, plan.name)
    return plan.out()


@router.post("/preview", response_model=PlanPreview)
def preview_plan(body: PlanBody, session: SessionDep, user: CurrentUser):
    """A plan's points and estimated duration; runs nothing, stores nothing."""
    preview = service.check_plan(body, session=session)
    policy.check_plan(body, role=user.role, session=session)
    return preview


@router.get("/templates", response_model=list[PlanTemplate])
def list_templates():
    """Built-in plans to start from."""
    return templates.list_templates()


@router.get("/templates/{template_id}", response_model=PlanTemplate)
def get_template(template_id: str, quick: bool = Query(default=False, description=f"a quick look: every phase and variant, at most "
                                                     f"{templates.QUICK_POINTS} points of {templates.QUICK_DURATION_S:g} s")):
    """One built-in plan, whole or as a quick look."""
    return templates.get_template(template_id, quick)


@router.post("/import.yaml", response_model=PlanOut, status_code=201,
             openapi_extra={"requestBody": {"content": {"application/yaml": {"schema": {"type": "string"}}}, "required": True}})
async def import_yaml(request: Request, session: SessionDep, user: CurrentUser):
    """Store a plan sent as YAML (the same fields as the JSON shape)."""
    body = await run_in_threadpool(yaml_io.from_yaml, await request.body())
    plan = await run_in_threadpool(service.create_plan, body, session=session)
    await run_in_threadpool(policy.check_plan, body, role=user.role, session=session)
    record_by(session, user, "import", "plan", plan.id, plan.name)
    return plan.out()


@router.get("/{plan_id}.yaml", response_class=PlainTextResponse)
def export_yaml(session: SessionDep, plan_id: int):
    """A plan as YAML, ready to keep in a repository and import again."""
    text = yaml_io.to_yaml(service.get_plan(plan_id, session=session).body)
    return PlainTextResponse(text, media_type="application/yaml", headers={"Content-Disposition": f'attachment; filename="plan-{plan_id}.yaml"'})


@router.get("/{plan_id}", response_model=PlanOut)
def get_plan(plan_id: int, session: SessionDep):
    """One plan."""
    return service.get_plan(plan_id, session=session).out()


@router.put("/{plan_id}", response_model=PlanOut)
def replace_plan(plan_id: int, body: PlanBody, session: SessionDep, user: CurrentUser):
    """Replace a plan."""
    plan = service.replace_plan(plan_id, body, session=session)
    policy.check_plan(body, role=user.role, session=session)
    record_by(session, user, "update", "plan", plan.id, plan.name)
    return plan.out()


@router.put("/{plan_id}/baseline", response_model=PlanOut)
def pin_baseline(plan_id: int, body: BaselinePin, session: SessionDep, user: CurrentUser):
    """Pin the campaign this plan's reports compare against (null unpins)."""
    plan = service.pin_baseline(plan_id, body.campaign_id, session=session)
    record_by(session, user, "pin baseline", "plan", plan.id, plan.name, {"campaign_id": body.campaign_id})
    return plan.out()


@router.delete("/{plan_id}", status_code=204)
def delete_plan(plan_id: int, session: SessionDep, user: CurrentUser):
    """Delete a plan."""
    name = service.get_plan(plan_id, session=session).name
    service.delete_plan(plan_id, session=session)
    record_by(session, user, "delete", "plan", plan_id, name)
    return Response(status_code=204)
