"""A point event as a plan gives it: when, which registered action, on what."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator

from kneeboard.agents.schemas import AGENT_NAME
from kneeboard.events.actions import ACTIONS

MAX_EVENTS = 10


def _catalogue() -> str:
    """The registered actions, said in the API's schema (built after the providers registered at start)."""
    return "a registered point event: " + ", ".join(f"{a.name} ({a.description})" for a in ACTIONS.values())


class PointEvent(BaseModel):
    """At `at_s` seconds into each point of its phase, the registered `action` on `value` (e.g. lab.backend_stop b2)."""

    model_config = ConfigDict(extra="forbid")
    at_s: float = Field(ge=0, le=3600, description="seconds after the point's load starts")
    action: str = Field(json_schema_extra=lambda schema: schema.update(description=_catalogue()))
    value: str = Field(max_length=40, description="what it acts on (a lab backend: b1, b2, b3; a service or backend/server "
                       "its observer's configuration names; a webhook's id), or an impairment's value (lab.loss_permille: 10)")
    observer: str | None = Field(default=None, pattern=AGENT_NAME, description="the observer (`kneeboard agent --observe "
                                 "--actions FILE`) that runs a host.* action on the server's host; none for lab and webhook actions")

    @model_validator(mode="after")
    def _registered(self) -> PointEvent:
        """Only registered actions, only on their own values."""
        found = ACTIONS.get(self.action)
        if found is None:
            raise ValueError(f"action: unknown point event {self.action!r}; registered: {', '.join(ACTIONS)}")
        if refusal := found.refusal(self.value):
            raise ValueError(f"value: {refusal}")
        if (found.runs_on == "observer") != (self.observer is not None):
            raise ValueError(f"observer: {self.action} runs on an observer: name it" if self.observer is None else
                             f"observer: {self.action} runs on the worker; only host.* actions name an observer")
        return self
