"""Read-only share links to a report or a comparison."""
