"""Targets: the systems under test."""
