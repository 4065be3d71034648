"""Events during a point (issue 39): registered actions on the system under test fired at `at_s` into the load, each
recorded with its exact time, audited, and read against the point's request outcomes (the failover figures)."""
