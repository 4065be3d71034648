"""Webhooks: who is told when a campaign regresses or a trend changes; a durable, signed outbox."""
