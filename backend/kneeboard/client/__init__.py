"""The `kneeboard` commands that talk to a running server over its REST API (run, plans, campaigns, import)."""
