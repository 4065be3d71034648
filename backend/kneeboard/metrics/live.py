"""The latest live sample of each running point, heard on the campaigns' pub/sub channels by a background thread."""

from __future__ import annotations

import json
import logging
import threading
import time

import redis

from kneeboard.config import get_settings

log = logging.getLogger(__name__)


class LiveSamples:
    """Keeps {(campaign_id, point_id): (values, monotonic time)} for points that sent a sample recently."""

    def __init__(self) -> None:
        self._latest: dict[tuple[int, int], tuple[dict, float]] = {}
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Start listening (once; a lost connection is retried every few seconds)."""
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._listen, name="kneeboard-metrics-live", daemon=True)
                self._thread.start()

    def record(self, channel: str, payload: bytes | str) -> None:
        """Keep a `sample` event of the point series; anything else is ignored."""
        try:
            message = json.loads(payload)
            campaign_id = int(channel.rsplit(":", 1)[1])
            data = message["data"]
            if message.get("event") != "sample" or data.get("series", "point") != "point":
                return
            values = {k: float(v) for k, v in data.get("values", {}).items() if isinstance(v, (int, float)) and not isinstance(v, bool)}
            with self._lock:
                self._latest[(campaign_id, int(data["point_id"]))] = (values, time.monotonic())
        except (ValueError, KeyError, TypeError, IndexError):
            return

    def current(self) -> dict[tuple[int, int], dict]:
        """The samples heard within METRICS_LIVE_S seconds (older ones are forgotten)."""
        horizon = time.monotonic() - get_settings().metrics_live_s
        with self._lock:
            for key in [k for k, (_, seen) in self._latest.items() if seen < horizon]:
                del self._latest[key]
            return {key: values for key, (values, _) in self._latest.items()}

    def _listen(self) -> None:
        while True:
            try:
                pubsub = redis.Redis.from_url(get_settings().redis_url).pubsub(ignore_subscribe_messages=True)
                pubsub.psubscribe("kneeboard:campaign:*")
                for message in pubsub.listen():
                    if message.get("type") == "pmessage":
                        channel = message["channel"].decode() if isinstance(message["channel"], bytes) else message["channel"]
                        self.record(channel, message["data"])
            except redis.RedisError as exc:
                log.debug("metrics: live samples unavailable: %s", exc)
            time.sleep(3)


live_samples = LiveSamples()
