"""Plan-time checks of fan-out: named agents must be registered remote agents, and every fanned
point needs at least one connection (device, client) per agent."""

from __future__ import annotations

from sqlalchemy.orm import Session

from kneeboard.agents.models import Agent
from kneeboard.errors import Invalid


def check_agents(body, points, *, session: Session) -> None:
    """Invalid (422 naming `agents`) for unknown agent names or a point too small to split."""
    wanted = [((body.tool, "agents"), body.agents)] + [((body.tool, "phases", i, "agents"), p.agents) for i, p in enumerate(body.phases)]
    errors = []
    for loc, agents in wanted:
        for name in agents if isinstance(agents, list) else []:
            agent = session.get(Agent, name)
            if agent is None or not (agent.facts or {}).get("remote"):
                errors.append((loc, f"no remote agent named {name!r} has registered (start it with `kneeboard agent --name {name} ...`)"))
    for point in points:
        agents = body.phases[point.phase_index].agents or body.agents
        count = len(agents) if isinstance(agents, list) else agents or 1
        if point.concurrency < count:
            errors.append(((body.tool, "phases", point.phase_index, "agents"),
                           f"a point of {point.concurrency} cannot be split over {count} agents (each needs at least 1)"))
            break
    if errors:
        raise Invalid(*errors[0], more=errors[1:])
