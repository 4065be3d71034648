"""The Redis keys of a fanned point, on the server's private Redis: the conductor writes them, and the API reads
and writes them for the remote agents (which reach only the API, never Redis)."""

from __future__ import annotations

from dataclasses import dataclass

ALIVE_MS = 3000  # an agent running a share renews its sign of life every second; three missed beats is a dead agent
KEEP_S = 3600  # results and stop flags are removed an hour after the point
LEASE_MS = 3000  # the conductor renews its run's lease while it gathers; agents stop their load when it lapses


@dataclass(frozen=True)
class RunKeys:
    """The keys of one fanned run of a point (`run` is unique per run)."""

    run: str

    @property
    def results(self) -> str:
        """A list each agent pushes its ShareOutcome onto."""
        return f"kneeboard:fanout:{self.run}:results"

    @property
    def stop(self) -> str:
        """Set (to the reason) when the agents must stop their load."""
        return f"kneeboard:fanout:{self.run}:stop"

    @property
    def lease(self) -> str:
        """Present while the conductor lives and gathers (renewed every loop, expires LEASE_MS after)."""
        return f"kneeboard:fanout:{self.run}:lease"

    @property
    def assignment(self) -> str:
        """JSON {campaign_id, point_id, attempt, agents}: which agents may report on this run, for which point."""
        return f"kneeboard:fanout:{self.run}:assignment"

    @property
    def closed(self) -> str:
        """Set when the conductor stopped gathering: nothing more of this run is accepted."""
        return f"kneeboard:fanout:{self.run}:closed"

    def reported(self, agent: str) -> str:
        """Set when `agent`'s outcome was accepted (one outcome per agent and run)."""
        return f"kneeboard:fanout:{self.run}:reported:{agent}"

    def alive(self, agent: str) -> str:
        """Present while `agent` works on its share (expires ALIVE_MS after its last beat)."""
        return f"kneeboard:fanout:{self.run}:alive:{agent}"


def work(agent: str) -> str:
    """The list of shares waiting for `agent` to take them through the API (oldest first)."""
    return f"kneeboard:agent:{agent}:work"


def polling(agent: str) -> str:
    """Present while one of `agent`'s work polls waits in the API: a share sent now is taken at once."""
    return f"kneeboard:agent:{agent}:polling"


def reservation(agent: str) -> str:
    """Held by the conductor of the fanned point that reserved `agent`."""
    return f"kneeboard:agent:{agent}:reserved"
