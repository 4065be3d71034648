"""What an observer's host actions take out is written down before the action runs (observers/agent.py `_act`), so an
observer killed at any moment after an action took effect leaves a record its next start puts back."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from types import SimpleNamespace

from kneeboard.events.actions import EventFailed
from kneeboard.observers.agent import HostSide, _act
from kneeboard.observers.host import HaproxyAccess, HostActions, HostConfig, InForce


class Recording(HostActions):
    """HAProxy's runtime API replaced by a note of the state file as each command reaches it (or a refusal)."""

    def __init__(self, config: HostConfig, state: Path, fail: set[str]) -> None:
        super().__init__(config)
        self.state, self.fail, self.seen = state, fail, []

    def _haproxy(self, verb: str, server: str) -> dict:
        self.seen.append((verb, server, json.loads(self.state.read_text()) if self.state.exists() else None))
        if f"{verb} {server}" in self.fail:
            raise EventFailed(f"HAProxy answered: no such server {server}")
        return {}


def host(tmp_path: Path, fail: set[str] = frozenset()) -> tuple[HostSide, Recording, Path]:
    state = tmp_path / "in-force.json"
    config = HostConfig(max_in_force_s=0.01, haproxy=HaproxyAccess(socket=tmp_path / "stats.sock", servers=["servers/b2", "servers/b3"]))
    actions = Recording(config, state, set(fail))
    return HostSide(actions, InForce(state)), actions, state


def job(*events: tuple[str, str]) -> dict:
    now = time.time()
    return {"start_at": now, "until": now + 0.05, "events": [{"at_s": 0, "action": a, "value": v} for a, v in events]}


def test_the_undo_is_on_disk_before_the_action_reaches_haproxy(tmp_path):
    side, actions, state = host(tmp_path)
    records, reverted = _act(job(("host.haproxy_disable", "servers/b2")), SimpleNamespace(offset_s=0.0), side, threading.Event(), lambda r: None)
    (verb, server, on_disk), put_back = actions.seen
    assert (verb, server) == ("disable", "servers/b2") and on_disk == {"host.haproxy:servers/b2": ["host.haproxy_enable", "servers/b2"]}
    assert put_back[:2] == ("enable", "servers/b2") and [r["action"] for r in reverted] == ["host.haproxy_enable"]
    assert json.loads(state.read_text()) == {} and "error" not in records[0]


def test_a_failed_action_leaves_what_was_in_force_before_it(tmp_path):
    side, actions, state = host(tmp_path, fail={"disable servers/b3"})
    side.in_force.note("host.haproxy_disable", "servers/b2")
    records, reverted = _act(job(("host.haproxy_disable", "servers/b3")), SimpleNamespace(offset_s=0.0), side, threading.Event(), lambda r: None)
    assert "no such server" in records[0]["error"]
    assert [(r["action"], r["value"]) for r in reverted] == [("host.haproxy_enable", "servers/b2")]  # b3 was never taken out
    assert [verb for verb, _, _ in actions.seen] == ["disable", "enable"] and json.loads(state.read_text()) == {}


def test_a_restarted_observer_puts_back_what_the_file_holds(tmp_path):
    side, actions, state = host(tmp_path)
    side.in_force.note("host.haproxy_disable", "servers/b3")  # as a killed observer left it
    done = InForce.recover(state, actions)
    assert [(r["action"], r["value"]) for r in done] == [("host.haproxy_enable", "servers/b3")] and "error" not in done[0]
    assert json.loads(state.read_text()) == {}
