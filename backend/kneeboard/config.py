"""Every setting, read from environment variables (documented in .env.example)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Kneeboard's settings; each field is the upper-case environment variable of its name."""

    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    database_url: str = "sqlite:///./kneeboard.db"
    redis_url: str = "redis://127.0.0.1:6379/0"
    agent_name: str = "local"
    workdir: Path = Path("/tmp/kneeboard")
    frontend_dist: Path | None = None

    max_concurrency: int = 100_000
    max_rate: float = 10_000_000_000.0
    max_points: int = 500
    max_duration_s: float = 86_400.0
    max_pause_s: float = 3_600.0
    max_repeat: int = 20
    grace_s: float = 10.0
    raw_output_limit: int = 1_048_576
    heartbeat_s: float = 10.0


@lru_cache
def get_settings() -> Settings:
    """The process-wide settings (cached; tests clear the cache to change them)."""
    return Settings()
