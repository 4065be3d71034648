"""Live streams: server-sent events of running campaigns, fanned out from one Redis subscription per process."""
