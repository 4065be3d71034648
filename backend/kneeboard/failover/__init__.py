"""Load balancers under failure: a point's request outcomes per 10 ms and what they say (issue 39)."""
