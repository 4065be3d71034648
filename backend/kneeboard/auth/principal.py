"""Who is asking: the signed-in user (or the KB_ADMIN_TOKEN), how they signed in, and from where."""

from __future__ import annotations

from dataclasses import dataclass


ENV_ADMIN = "KB_ADMIN_TOKEN"  # the username of the caller who presents KB_ADMIN_TOKEN


@dataclass(frozen=True)
class Principal:
    """The authenticated caller of one request."""

    username: str
    role: str
    via: str  # "session", "token", "env" or "agent" (an agent credential)
    user_id: int | None = None
    credential_id: int | None = None  # the session's or token's row id
    token_name: str | None = None
    source: str | None = None
    agent: str | None = None  # the one agent name an agent credential may act as

    @property
    def actor(self) -> str:
        """The name the audit log records: the username, token:<owner>/<name> for API tokens, agent:/observer:<name>."""
        if self.via == "agent":
            return f"{self.role}:{self.agent}"  # agent:NAME, or observer:NAME
        if self.via == "env":
            return "token:KB_ADMIN_TOKEN"
        if self.via == "token":
            return f"token:{self.username}/{self.token_name}"
        return self.username
