"""verdicts.t_quantile (special.stdtrit, called in thousands by the comparison) is scipy's stats.t.ppf, value for value,
including its NaN where the degrees of freedom are not positive."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from kneeboard.analysis.verdicts import t_quantile

DF = np.array([-1.0, 0.0, np.nan, 0.5, 1.0, 1.7, 2.0, 3.3, 4.5, 10.0, 100.0, 1e6, np.inf])


@pytest.mark.parametrize("q", [0.5, 0.8, 0.95, 0.975, 0.995])
def test_t_quantile_is_scipys_ppf(q):
    assert np.array_equal(t_quantile(q, DF), stats.t.ppf(q, DF), equal_nan=True)
    assert all(t_quantile(q, df) == stats.t.ppf(q, df) for df in DF if df > 0)  # one at a time, as repetitions_for asks


@pytest.mark.parametrize("q", [0.5, 0.8, 0.95, 0.975, 0.995])
def test_repetitions_for_takes_the_normal_quantile_scipy_gives(q):
    """repetitions_for starts from special.ndtri, which must be stats.norm.ppf."""
    from scipy import special

    assert special.ndtri(q) == stats.norm.ppf(q)
