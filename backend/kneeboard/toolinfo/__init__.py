"""The tools as the API shows them: GET /tools (what every registered tool takes and produces). A route over the pure
tools/ registry, kept out of tools/ so that tools/ imports no web code."""
