"""Lab routes: its state and the actions variants may use."""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel, Field

from kneeboard.lab.actions import list_actions
from kneeboard.lab.namespace import status
from kneeboard.lab.system import cpu_count

router = APIRouter(prefix="/lab", tags=["lab"])


class LabAction(BaseModel):
    """A registered action a variant may set."""

    name: str
    type: str
    min: int | None = None
    max: int | None = None
    choices: list[str] | None = Field(default=None, description="an enum's values (type enum)")
    default: int | bool | str | None = Field(default=None, description="set when a variant does not set it, and after the campaign")
    description: str


class LabState(BaseModel):
    """Whether the lab is up (or why not), its queues and services, and the actions variants may use."""

    present: bool
    reason: str | None
    queues: int | None
    services: list[dict]
    cpu_count: int
    actions: list[LabAction]


@router.get("", response_model=LabState)
def lab_state():
    """The lab as it is now (no probing) and the actions with their ranges."""
    return {**status(probe=False).to_dict(), "cpu_count": cpu_count(), "actions": list_actions()}
