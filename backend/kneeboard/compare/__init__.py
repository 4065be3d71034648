"""Comparing campaigns side by side."""
