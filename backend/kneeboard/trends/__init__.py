"""Trends: a series of campaigns over time, its headline figures and change points."""
