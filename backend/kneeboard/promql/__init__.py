"""A team's Prometheus: registered by an admin on an allow-list of its own, read by PromQL after each point."""
