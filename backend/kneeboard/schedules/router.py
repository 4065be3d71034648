"""Schedule routes: /api/v1/schedules."""

from __future__ import annotations

from fastapi import APIRouter, Response

from kneeboard.audit.service import record_by
from kneeboard.auth.deps import CurrentUser
from kneeboard.deps import SessionDep
from kneeboard.schedules import service
from kneeboard.schedules.schemas import ScheduleCreate, ScheduleFields, ScheduleOut

router = APIRouter(prefix="/schedules", tags=["schedules"])


@router.get("", response_model=list[ScheduleOut])
def list_schedules(session: SessionDep):
    """Every schedule with its next run, last run, gate and missed runs."""
    return [service.describe(s, session=session) for s in service.list_all(session=session)]


@router.post("", response_model=ScheduleOut, status_code=201)
def create_schedule(session: SessionDep, body: ScheduleCreate, user: CurrentUser):
    """Schedule a stored plan on a five-field cron expression."""
    schedule = service.create(body, role=user.role, creator=user.username, session=session)
    record_by(session, user, "create", "schedule", schedule.id, schedule.cron, {"plan_id": schedule.plan_id})
    return service.describe(schedule, session=session)


@router.get("/{schedule_id}", response_model=ScheduleOut)
def get_schedule(session: SessionDep, schedule_id: int):
    """One schedule."""
    return service.describe(service.get(schedule_id, session=session), session=session)


@router.patch("/{schedule_id}", response_model=ScheduleOut)
def change_schedule(session: SessionDep, schedule_id: int, body: ScheduleFields, user: CurrentUser):
    """Enable, disable or change a schedule."""
    schedule = service.update(schedule_id, body, session=session)
    record_by(session, user, "update", "schedule", schedule.id, schedule.cron, {"fields": sorted(body.model_fields_set)})
    return service.describe(schedule, session=session)


@router.delete("/{schedule_id}", status_code=204)
def delete_schedule(session: SessionDep, schedule_id: int, user: CurrentUser):
    """Delete a schedule; its campaigns stay."""
    schedule = service.delete(schedule_id, session=session)
    record_by(session, user, "delete", "schedule", schedule_id, schedule.cron)
    return Response(status_code=204)
