"""Roles and which role a request needs: reads need viewer, writes operator, user and audit matters admin."""

from __future__ import annotations

from enum import Enum

API = "/api/v1"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
PUBLIC = frozenset({("GET", f"{API}/health"), ("POST", f"{API}/auth/login")})
PUBLIC_PREFIX = f"{API}/shared/"
SELF_SERVICE = (f"{API}/auth/", f"{API}/tokens")  # every signed-in user manages their own session and tokens
ADMIN_READS = (f"{API}/users", f"{API}/audit", f"{API}/agent-credentials")
ADMIN_WRITES = (f"{API}/users", f"{API}/audit", f"{API}/policy", f"{API}/agent-credentials")
AGENT_LINK = (f"{API}/agent",)  # the remote agents' protocol: the only routes an agent credential reaches
AGENT_READS = (f"{API}/policy/targets",)  # and the target policy, to check its shares against


class Role(str, Enum):
    """viewer < operator < admin; `agent` (remote agents' credentials) reaches only the agent link and reads the policy;
    `observer` (observers' credentials) reaches only the agent link, where its routes refuse it all but its own
    observe assignments."""

    viewer = "viewer"
    operator = "operator"
    admin = "admin"
    agent = "agent"
    observer = "observer"


RANK = {Role.viewer: 0, Role.agent: 0, Role.observer: 0, Role.operator: 1, Role.admin: 2}


def is_public(method: str, path: str) -> bool:
    """Health, login and share-link reads need no credentials."""
    return (method, path) in PUBLIC or (method == "HEAD" and ("GET", path) in PUBLIC) or path.startswith(PUBLIC_PREFIX)


def _under(path: str, prefixes: tuple[str, ...]) -> bool:
    return any(path == p.rstrip("/") or path.startswith(p.rstrip("/") + "/") for p in prefixes)


def required_role(method: str, path: str) -> Role:
    """The least role a request needs, by method and path (routes may ask for more with `require`)."""
    if method in SAFE_METHODS:
        return Role.admin if _under(path, ADMIN_READS) else Role.viewer
    if _under(path, ADMIN_WRITES):
        return Role.admin
    if _under(path, SELF_SERVICE):
        return Role.viewer
    return Role.operator


def allows(role: str, needed: Role, path: str = "") -> bool:
    """Whether `role` is at least `needed`; an agent reaches the agent link and reads the target policy, nothing else."""
    have = Role(role)
    if have is Role.observer:
        return _under(path, AGENT_LINK)
    if have is Role.agent:
        return _under(path, AGENT_LINK) or (needed is Role.viewer and _under(path, AGENT_READS))
    if _under(path, AGENT_LINK):
        return False  # only agent credentials speak the agent protocol
    return RANK[have] >= RANK[needed]
