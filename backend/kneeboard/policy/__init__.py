"""The target policy: which addresses may receive load, and per-role load caps."""
