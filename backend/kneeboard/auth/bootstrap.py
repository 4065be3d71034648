"""First start: an `admin` account with a random password and a token, written to .run/admin.env (mode 0600)."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from kneeboard.audit.service import record
from kneeboard.auth import service, tokens
from kneeboard.auth.credentials import digest
from kneeboard.auth.roles import Role
from kneeboard.auth.schemas import TokenCreate, UserCreate
from kneeboard.db import session_scope

ADMIN = "admin"


def read_env_file(path: Path) -> dict[str, str]:
    """KEY=value lines of a small env file."""
    pairs = (line.split("=", 1) for line in path.read_text().splitlines() if "=" in line and not line.lstrip().startswith("#"))
    return {key.strip(): value.strip() for key, value in pairs}


def _write_private(path: Path, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(text)


def ensure_admin(path: Path) -> str:
    """Make sure an admin can sign in; returns a line saying where the credentials are.

    No file and no `admin` user: create both. A file but no user (a new database): create the user from the file.
    An existing user is never changed, and an existing file never overwritten.
    """
    known = read_env_file(path) if path.exists() else {}
    with session_scope() as session:
        if service.find_user(ADMIN, session=session) is not None:
            return f"admin credentials: {path}" if known else f"user {ADMIN} exists ({path} is absent; make a token in the UI or with the API)"
        password = known.get("KB_PASSWORD") or secrets.token_urlsafe(18)
        user = service.create_user(UserCreate(username=ADMIN, password=password, role=Role.admin), session=session)
        token, secret = tokens.issue(user, TokenCreate(name="admin.env"), session=session)
        if known.get("KB_TOKEN"):
            token.token_hash, token.prefix = digest(known["KB_TOKEN"]), tokens.secret_prefix(known["KB_TOKEN"])
            secret = known["KB_TOKEN"]
        record(session, "system", "create", "user", user.id, user.username, None, {"role": user.role, "by": "make up"})
        if not known:
            _write_private(path, f"KB_USER={ADMIN}\nKB_PASSWORD={password}\nKB_TOKEN={secret}\n")
    return f"admin credentials: {path} (user {ADMIN}, mode 0600)"
