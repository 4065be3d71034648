"""Tool adapters: build argv, run it, parse its output. No web or database here."""
