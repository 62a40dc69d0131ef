"""The 95% intervals of sampled figures against scipy's own, and scores with half points (draws)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import binomtest

from guyenne_explore.analysis.intervals import difference_interval, wilson


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


@pytest.mark.parametrize("a, n, b, m, low, high", [
    # Newcombe (1998), "Interval estimation for the difference between independent proportions", table II, method 10
    (56, 70, 48, 80, 0.0524, 0.3339), (9, 10, 3, 10, 0.1705, 0.8090), (6, 7, 2, 7, 0.0582, 0.8062),
    (5, 56, 0, 29, -0.0381, 0.1926), (0, 10, 0, 20, -0.1611, 0.2775), (10, 10, 0, 20, 0.6791, 1.0)])
def test_the_difference_of_two_proportions_gets_newcombes_interval(a, n, b, m, low, high):
    assert difference_interval(a / n, wilson(a, n), b / m, wilson(b, m)) == pytest.approx((low, high), abs=5e-5)


def test_an_exact_estimate_adds_no_width_and_a_value_outside_its_interval_is_refused():
    assert difference_interval(0.6, (0.6, 0.6), 0.5, (0.5, 0.5)) == pytest.approx((0.1, 0.1))
    assert difference_interval(0.6, (0.5, 0.7), 0.5, (0.5, 0.5)) == pytest.approx((0.0, 0.2))
    with pytest.raises(ValueError, match="outside its interval"):
        difference_interval(0.9, (0.5, 0.7), 0.5, (0.4, 0.6))
