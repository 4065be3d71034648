"""Kneeboard: a web dashboard for capacity-test campaigns."""

__version__ = "0.1.0"
