"""wrk's parameters: every bound of its own settings lives here."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

MAX_THREADS = 64


class WrkParams(BaseModel):
    """wrk's own parameters (connections are the point's concurrency)."""

    model_config = ConfigDict(extra="forbid", strict=True, title="wrk parameters")
    path: str = Field(default="/", max_length=2000, pattern=r"^/[\x21-\x7e]*$", title="Path",
                      description="Printable ASCII starting with '/', no spaces")
    threads: int | None = Field(default=None, ge=1, le=MAX_THREADS, title="Threads",
                                description="wrk -t; at most the connections of every point (default 2, or fewer)")
    timeout_s: float = Field(default=2.0, ge=1, le=60, multiple_of=1, title="Request timeout (s)",
                             description="Whole seconds: wrk reads its --timeout in s, m or h only")
    scheme: Literal["http", "https"] = Field(default="http", title="Scheme")
