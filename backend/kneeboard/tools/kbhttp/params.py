"""kbhttp's parameters: every bound of its own settings lives here."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class KbhttpParams(BaseModel):
    """kbhttp's own parameters (the point's rate is requests/s in all, its concurrency the connections)."""

    model_config = ConfigDict(extra="forbid", strict=True, title="kbhttp parameters")
    path: str = Field(default="/", max_length=2000, pattern=r"^/(?:[\x21\x22\x24\x26-\x7e]|%[0-9A-Fa-f]{2})*$", title="Path",
                      description="Printable ASCII starting with '/', no spaces, no '#', '%' only as %XX")
    method: Literal["GET", "HEAD"] = Field(default="GET", title="Method")
    timeout_s: float = Field(default=2.0, ge=0.1, le=60, title="Request timeout (s)",
                             description="A request unanswered this long (after it was sent) counts as a timeout")
    scheme: Literal["http"] = Field(default="http", title="Scheme", description="http only")
