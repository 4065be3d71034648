"""Fan-out: one point run by several agents at once, each a share, merged exactly afterwards."""
