"""Route parameters that more than one router takes. A router imports this module, never another router."""

from __future__ import annotations

from fastapi import Path, Query

Token = Path(min_length=1, max_length=200, description="the token a share link's URL holds")
Limit = Query(default=30, ge=1, le=500, description="at most this many functions (or frames)")
