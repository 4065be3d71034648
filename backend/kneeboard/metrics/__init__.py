"""GET /metrics: Prometheus text exposition, every name prefixed `kneeboard_`."""
