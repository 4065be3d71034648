"""All-or-nothing reservation of a fanned point's agents on Redis.

Agents are taken one key each (SET NX PX), always in sorted order, so two fanned points can never
hold one agent each and wait for the other's (no deadlock); a conductor holding some waits for the
rest until its timeout, then lets go of everything. Held keys are renewed while the point runs.
"""

from __future__ import annotations

import threading
import time

import redis

from kneeboard.fanout.keys import reservation

TTL_MS = 15_000  # a conductor that dies frees its agents this long after its last renewal
_RENEW = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end"
_RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


class ReserveError(Exception):
    """The agents could not all be reserved in time (the message names who holds which)."""


class Reservation:
    """Agents held for one fanned point; a context manager that renews and finally releases them."""

    def __init__(self, broker: redis.Redis, agents: list[str], holder: str) -> None:
        self.broker, self.agents, self.holder = broker, sorted(agents), holder
        self.taken: list[str] = []
        self.done = threading.Event()
        self.renewer = threading.Thread(target=self._renew, daemon=True)

    def acquire(self, timeout_s: float) -> Reservation:
        """Take every agent in order, waiting up to `timeout_s` in all; ReserveError (nothing held) on timeout."""
        deadline = time.monotonic() + timeout_s
        for agent in self.agents:
            while not self.broker.set(reservation(agent), self.holder, nx=True, px=TTL_MS):
                if time.monotonic() > deadline:
                    busy = self.broker.get(reservation(agent))
                    self.release()
                    raise ReserveError(f"could not reserve agents {', '.join(self.agents)} within {timeout_s:g} s "
                                       f"({agent} is busy with {busy.decode() if busy else 'another point'})")
                self._renew_once()
                time.sleep(0.2)
            self.taken.append(agent)
        self.renewer.start()
        return self

    def _renew_once(self) -> None:
        for agent in self.taken:
            self.broker.eval(_RENEW, 1, reservation(agent), self.holder, TTL_MS)

    def _renew(self) -> None:
        while not self.done.wait(TTL_MS / 3000):
            try:
                self._renew_once()
            except redis.RedisError:
                pass  # the next renewal tries again; the TTL outlives a short blip

    def release(self) -> None:
        """Let go of every agent still held by us."""
        self.done.set()
        for agent in self.taken:
            self.broker.eval(_RELEASE, 1, reservation(agent), self.holder)
        self.taken = []

    def __enter__(self) -> Reservation:
        return self

    def __exit__(self, *_exc) -> None:
        self.release()
