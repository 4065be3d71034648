"""Server evidence: what the server's own metrics say of each point (kneeboard.evidence.assess). Pure."""
