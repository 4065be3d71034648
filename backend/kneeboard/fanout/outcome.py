"""What one agent reports for its share of a point (sent to the API, handed to the conductor through Redis)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

TAIL_CHARS = 20_000  # evidence kept per share: the summary sits at the end of a tool's output


@dataclass
class ShareOutcome:
    """One agent's share: its parsed result, when it started (server clock), its CPU and its evidence."""

    agent: str
    offered_rate: float | None = None
    metrics: dict[str, float | None] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)
    samples: list[dict[str, Any]] = field(default_factory=list)  # {"t", "series", "values"}
    error: str | None = None
    started_at: float | None = None  # epoch seconds on the server's clock
    cpu_s: float | None = None  # user + system time of the tool's processes
    cpus: int | None = None  # the agent's CPU count
    argv: list[str] = field(default_factory=list)
    exit_code: int | None = None
    stdout: str = ""
    stderr: str = ""
    cancelled: bool = False
    parser_version: str = "1"

    @staticmethod
    def tail(text: str) -> str:
        """The end of a tool's output that is kept as evidence."""
        return text[-TAIL_CHARS:]

    def to_json(self) -> str:
        """The outcome as one JSON document, output cut to its tail."""
        return json.dumps({**asdict(self), "stdout": self.tail(self.stdout), "stderr": self.tail(self.stderr)})

    @classmethod
    def from_json(cls, text: str | bytes) -> ShareOutcome:
        """Read back what `to_json` wrote (unknown keys ignored)."""
        data = json.loads(text)
        return cls(**{k: v for k, v in data.items() if k in cls.__dataclass_fields__})
