"""The 95% intervals of sampled figures against scipy's own, and scores with half points (draws)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import binomtest

from guyenne_explore.analysis.intervals import wilson


@given(st.integers(1, 2000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_is_scipys_interval_for_whole_counts(kn):
    k, n = kn
    ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    assert wilson(k, n) == pytest.approx((ci.low, ci.high), abs=1e-12)


@given(st.integers(1, 500).flatmap(lambda n: st.tuples(st.integers(0, n - 1), st.just(n))))
def test_a_half_point_lies_between_its_neighbours_counts(kn):
    """A score of k + 1/2 (a draw among the games) gets an interval between those of k and k + 1, not
    the interval of a rounded count."""
    k, n = kn
    low, high = wilson(k + 0.5, n)
    assert wilson(k, n)[0] < low < wilson(k + 1, n)[0]
    assert wilson(k, n)[1] < high < wilson(k + 1, n)[1]


@pytest.mark.parametrize("k, n", [(-1, 10), (10.5, 10)])
def test_a_score_outside_the_trials_is_refused(k, n):
    with pytest.raises(ValueError, match="successes out of"):
        wilson(k, n)
