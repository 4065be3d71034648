"""Outgoing requests: the allow-lists that say where the server may send (webhooks, Prometheus servers)."""
