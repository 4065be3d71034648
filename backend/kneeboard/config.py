"""Every setting, read from environment variables (documented in .env.example)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic import field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from kneeboard.grafana import check_base_url


class Settings(BaseSettings):
    """Kneeboard's settings; each field is the upper-case environment variable of its name."""

    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    database_url: str = "sqlite:///./kneeboard.db"
    redis_url: str = "redis://127.0.0.1:6379/0"
    agent_name: str = "local"
    dns_resolver: str = ""  # "ADDRESS:PORT" of the DNS server policy checks ask (default: the system's resolver)
    workdir: Path = Path("/tmp/kneeboard")
    frontend_dist: Path | None = None
    export_node: str = "node"  # the Node.js the HTML/Markdown exports run (docs/exports.md)
    export_renderer: Path | None = None  # default: frontend/dist-export/render.js
    export_timeout_s: float = 60.0
    export_max_input_bytes: int = 32 * 1_048_576
    export_max_output_bytes: int = 16 * 1_048_576

    max_concurrency: int = 100_000
    max_rate: float = 10_000_000_000.0
    max_points: int = 500
    max_duration_s: float = 86_400.0
    max_pause_s: float = 3_600.0
    max_repeat: int = 20
    grace_s: float = 10.0
    raw_output_limit: int = 1_048_576
    heartbeat_s: float = 2.0
    lease_s: float = 20.0
    reap_every_s: float = 5.0
    redispatch_after_s: float = 30.0
    db_retry_s: float = 60.0
    schedule_tick_s: float = 15.0
    metrics_live_s: float = 30.0

    max_body_bytes: int = 2 * 1_048_576  # any request body (JSON); the import routes have their own caps
    max_yaml_bytes: int = 1_048_576
    max_import_bytes: int = 20 * 1_048_576
    max_import_rows: int = 10_000
    max_profile_bytes: int = 65_536

    kb_admin_token: str = ""
    allowed_hosts: str = "127.0.0.1,localhost,[::1],testserver"
    host: str = "127.0.0.1"
    session_ttl_s: float = 43_200.0
    sse_max_per_user: int = 8  # live streams one user may hold open in one API process
    sse_max_total: int = 256  # live streams one API process serves
    token_ttl_days: float = 90.0  # an API token's lifetime when its creator does not say
    public_url: str = ""  # how people reach the UI (links in webhook messages); empty: relative links
    webhook_poll_s: float = 2.0  # how often the API's delivery loop looks for due webhook messages
    webhook_retry_base_s: float = 5.0  # the first retry's delay; each next one doubles it (capped at an hour)
    webhook_max_attempts: int = 8  # then the message is marked failed
    webhook_timeout_s: float = 5.0  # per request: connect, send and read the answer
    grafana_url: str = ""  # Grafana's address: reports link to docs/grafana-kneeboard-prometheus.json there; empty: no links

    _grafana_url = field_validator("grafana_url")(classmethod(lambda cls, value: check_base_url(value)))

    def allowed_host_list(self) -> list[str]:
        """The Host header values the API answers to: ALLOWED_HOSTS plus the listen address."""
        hosts = [h.strip() for h in self.allowed_hosts.split(",") if h.strip()]
        listen = f"[{self.host}]" if ":" in self.host and not self.host.startswith("[") else self.host
        return hosts if listen in hosts or listen in {"0.0.0.0", "[::]"} else [*hosts, listen]


@lru_cache
def get_settings() -> Settings:
    """The process-wide settings (cached; tests clear the cache to change them)."""
    return Settings()
