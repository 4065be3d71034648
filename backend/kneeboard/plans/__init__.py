"""Plans: reusable definitions of a sweep, expanded to points."""
