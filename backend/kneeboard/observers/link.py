"""The observer's side of the agent link: the load agent's calls (hello, heartbeats) and its own assignments' calls."""

from __future__ import annotations

from kneeboard.fanout.link import ApiLink

BASE = "/api/v1/agent/observe"


class ObserverLink(ApiLink):
    """An observer's calls to the API, authenticated by its observer credential."""

    def take_assignment(self, instance: str, wait_s: float) -> dict | None:
        """The next observe assignment for this observer, waiting up to `wait_s`; None when there is none."""
        reply = self._call("GET", f"{BASE}/work", params={"instance": instance, "wait_s": wait_s}, timeout=wait_s + 10)
        return None if reply.status_code == 204 else reply.json()

    def acknowledge(self, assignment_id: int, process_seen: bool) -> None:
        """Take the assignment (before its load starts)."""
        self._call("POST", f"{BASE}/assignments/{assignment_id}/ack", json={"process_seen": process_seen}, timeout=5)

    def assignment_alive(self, assignment_id: int) -> str | None:
        """The assignment's sign of life; why to stop now, or None."""
        return self._call("POST", f"{BASE}/assignments/{assignment_id}/alive", timeout=2).json()["stop"]

    def tell(self, assignment_id: int, record: dict) -> None:
        """One host event as it fires or is done, for the live stream."""
        self._call("POST", f"{BASE}/assignments/{assignment_id}/event", json=record, timeout=2)

    def report(self, assignment_id: int, body: dict) -> None:
        """The assignment's folded profile (or why there is none)."""
        self._call("POST", f"{BASE}/assignments/{assignment_id}/profile", json=body, timeout=60)
