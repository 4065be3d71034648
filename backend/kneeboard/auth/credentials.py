"""Passwords (argon2) and random secrets (stored as SHA-256 digests)."""

from __future__ import annotations

import hashlib
import hmac
import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

_hasher = PasswordHasher()
_DUMMY_HASH = _hasher.hash("not a password anyone has")
TOKEN_PREFIX = "kb_"


def hash_password(password: str) -> str:
    """An argon2id hash of `password`."""
    return _hasher.hash(password)


def verify_password(password_hash: str | None, password: str) -> bool:
    """Whether `password` matches; costs the same time when there is no such user (`password_hash` None)."""
    try:
        return _hasher.verify(password_hash or _DUMMY_HASH, password) and password_hash is not None
    except (VerificationError, InvalidHashError):
        return False


def new_secret(prefix: str = "") -> str:
    """A random secret of 256 bits, URL-safe."""
    return prefix + secrets.token_urlsafe(32)


def digest(secret: str) -> str:
    """The SHA-256 hex digest a secret is stored and looked up by."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def same_secret(given: str, expected: str) -> bool:
    """Constant-time comparison of two secrets of any length."""
    return hmac.compare_digest(digest(given), digest(expected))
