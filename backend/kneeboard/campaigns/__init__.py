"""Campaigns: launches of a plan, their points and samples."""
