"""Exit codes of `kneeboard run` (99 follows k6's convention for a failed threshold)."""

OK = 0
CAMPAIGN_FAILED = 1  # failed, crashed or cancelled; or the server could not be reached
USAGE = 2  # a bad plan, threshold or argument
INCONCLUSIVE = 97  # the baseline comparison had too few repetitions, with --strict
REGRESSION = 98  # a statistically significant regression against the baseline
THRESHOLD = 99  # a threshold failed on a completed point
CHANGED = 96  # kneeboard trend --fail-on-change: the metric changed after the given campaign
