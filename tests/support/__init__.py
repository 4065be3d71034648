"""Helpers that start the real services the tests use."""
